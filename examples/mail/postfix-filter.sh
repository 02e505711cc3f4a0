#!/bin/sh
# linkbase as a Postfix content filter (docs/mime.md, "As a mail filter"):
# pipe(8) hands the message on standard input; linkbase --filter writes it,
# rewritten (or unchanged, the problem on standard error), and sendmail
# re-injects it. Any failure exits 75 (EX_TEMPFAIL): Postfix keeps the
# message in its queue and tries again; nothing is bounced.
#
# master.cf:
#   linkbase  unix  -  n  n  -  4  pipe flags=Rq user=filter null_sender=
#     argv=/usr/local/bin/postfix-filter.sh -f ${sender} -- ${recipient}
# and on the smtpd service: -o content_filter=linkbase:dummy
#
# LINKBASE: the linkbase binary (default: linkbase on PATH);
# LINKBASE_ARGS: more flags (e.g. --url https://example.org/).
EX_TEMPFAIL=75
LINKBASE=${LINKBASE:-linkbase}
SENDMAIL=${SENDMAIL:-/usr/sbin/sendmail}
message=$(mktemp) || exit $EX_TEMPFAIL
trap 'rm -f "$message"' EXIT
# shellcheck disable=SC2086 # LINKBASE_ARGS is a list of flags
"$LINKBASE" --filter $LINKBASE_ARGS >"$message" || exit $EX_TEMPFAIL
"$SENDMAIL" -G -i "$@" <"$message" || exit $EX_TEMPFAIL
exit 0
