#!/usr/bin/env python3
"""linkbase --filter behind a real Postfix (issue 32).

A Postfix instance of its own (configuration, queue and Maildirs in a
temporary folder; SMTP on 127.0.0.1 at a free port, nothing else listening)
runs examples/mail/postfix-filter.sh as a pipe(8) content filter on its
smtpd, and delivers with virtual(8) into a Maildir. Two messages are sent
with smtplib: one whose relative links resolve against its Content-Base,
and one with a link that cannot be resolved (exit status 1 without
--filter, which pipe(8) bounces). Both must arrive in the Maildir, the first
rewritten, the second as it was sent; nothing may bounce. The instance is
stopped and its folder removed on every exit.

Usage: postfix_filter.py LINKBASE_BINARY   (root; Postfix installed:
.ci/postfix.sh installs it)
"""

import email
import os
import pwd
import shutil
import socket
import smtplib
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOMAIN = "linkbase-test.example"

MAIN_CF = """\
compatibility_level = 3.6
myhostname = mx.{domain}
mydomain = {domain}
myorigin = $myhostname
mydestination =
inet_interfaces = loopback-only
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
queue_directory = {t}/spool
data_directory = {t}/data
meta_directory = /etc/postfix
mail_owner = postfix
setgid_group = postdrop
maillog_file = {t}/maillog
maillog_file_prefixes = {t}
alias_maps =
alias_database =
smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination
virtual_mailbox_domains = {domain}
virtual_mailbox_maps = inline:{{ user@{domain}=user/ }}
virtual_mailbox_base = {t}/mail
virtual_uid_maps = static:65534
virtual_gid_maps = static:65534
relayhost =
default_transport = error:this test delivers nothing outside {domain}
bounce_queue_lifetime = 0
maximal_queue_lifetime = 1h
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 2s
smtputf8_enable = no
biff = no
"""

# Every service with chroot off (nothing to copy into a jail); smtpd on the
# test's port only, with the content filter; the filter itself.
MASTER_CF = """\
127.0.0.1:{port} inet n - n - - smtpd
  -o content_filter=linkbase:dummy
pickup    unix  n       -       n       60      1       pickup
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
tlsmgr    unix  -       -       n       1000?   1       tlsmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
smtp      unix  -       -       n       -       -       smtp
relay     unix  -       -       n       -       -       smtp
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
local     unix  -       n       n       -       -       local
virtual   unix  -       n       n       -       -       virtual
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
linkbase  unix  -       n       n       -       2       pipe
  flags=Rq user=nobody null_sender=
  argv={t}/bin/postfix-filter.sh -f ${{sender}} -- ${{recipient}}
"""

GOOD = """\
From: sender@{domain}
To: user@{domain}
Subject: links that resolve
Message-ID: <good@{domain}>
MIME-Version: 1.0
Content-Type: text/html; charset=utf-8
Content-Base: https://example.org/news/2026/

<p><a href="issue-12.html">Issue 12</a> <img src="../img/logo.png"></p>
"""

UNRESOLVABLE = """\
From: sender@{domain}
To: user@{domain}
Subject: a link that cannot be resolved
Message-ID: <unresolvable@{domain}>
MIME-Version: 1.0
Content-Type: text/html; charset=utf-8
Content-Base: mailto:list@{domain}

<p><a href="archive.html">the archive</a></p>
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def postfix(conf, *args, check=True):
    done = subprocess.run(["postfix", "-c", conf, *args], capture_output=True, text=True)
    if check and done.returncode != 0:
        log = os.path.join(os.path.dirname(conf), "maillog")
        log = open(log).read() if os.path.exists(log) else "(no maillog)"
        raise AssertionError(f"postfix {' '.join(args)}: exit status {done.returncode}\n"
                             f"{done.stdout}{done.stderr}{log}")
    return done


def wait_for(what, predicate, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out after {seconds} s waiting for {what}")


def body(raw):
    message = email.message_from_bytes(raw)
    return message.get_payload(decode=True).decode()


def main():
    linkbase = os.path.abspath(sys.argv[1])
    t = tempfile.mkdtemp(prefix="linkbase-postfix-")
    conf = os.path.join(t, "conf")
    started = False
    # sendmail hands the re-injected message to postdrop, which is set-gid
    # and so reads the default main.cf, where a configuration folder of
    # its own must be listed (postconf(5), alternate_config_directories).
    # The default main.cf is restored as it was (or removed) on exit.
    default_cf = "/etc/postfix/main.cf"
    saved_cf = open(default_cf, "rb").read() if os.path.exists(default_cf) else None
    try:
        with open(default_cf, "ab") as f:
            f.write(f"\n# linkbase test (removed after it)\nalternate_config_directories = {conf}\n".encode())
        os.chmod(t, 0o755)
        for d in ("conf", "spool", "data", "mail", "bin"):
            os.mkdir(os.path.join(t, d))
        os.chown(os.path.join(t, "mail"), 65534, 65534)
        postfix_user = pwd.getpwnam("postfix")
        os.chown(os.path.join(t, "data"), postfix_user.pw_uid, postfix_user.pw_gid)
        # The filter runs as nobody: its own copies, readable by anyone.
        shutil.copy(linkbase, os.path.join(t, "bin", "linkbase"))
        with open(os.path.join(t, "bin", "postfix-filter.sh"), "w") as f:
            with open(os.path.join(REPO, "examples/mail/postfix-filter.sh")) as src:
                script = src.read()
            f.write(script.replace('LINKBASE=${LINKBASE:-linkbase}',
                                   f'LINKBASE={t}/bin/linkbase', 1))
        for name in ("linkbase", "postfix-filter.sh"):
            os.chmod(os.path.join(t, "bin", name), 0o755)
        port = free_port()
        with open(os.path.join(conf, "main.cf"), "w") as f:
            f.write(MAIN_CF.format(t=t, domain=DOMAIN))
        with open(os.path.join(conf, "master.cf"), "w") as f:
            f.write(MASTER_CF.format(t=t, port=port))
        began = time.monotonic()
        postfix(conf, "start")
        started = True

        def listening():
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return True
            except OSError:
                return False

        wait_for("smtpd to listen", listening, 30)
        with smtplib.SMTP("127.0.0.1", port, timeout=30) as smtp:
            for text in (GOOD, UNRESOLVABLE):
                smtp.sendmail(f"sender@{DOMAIN}", [f"user@{DOMAIN}"],
                              text.format(domain=DOMAIN).replace("\n", "\r\n").encode())
        new = os.path.join(t, "mail", "user", "new")

        def delivered():
            names = os.listdir(new) if os.path.isdir(new) else []
            return names if len(names) == 2 else None

        try:
            names = wait_for("two messages in the Maildir", delivered, 90)
        except AssertionError:
            with open(os.path.join(t, "maillog")) as log:
                sys.stderr.write(log.read())
            raise
        messages = {}
        for name in names:
            with open(os.path.join(new, name), "rb") as f:
                raw = f.read()
            messages[email.message_from_bytes(raw)["Message-ID"]] = raw
        good = body(messages[f"<good@{DOMAIN}>"])
        assert good == ('<p><a href="https://example.org/news/2026/issue-12.html">Issue 12</a>'
                        ' <img src="https://example.org/news/img/logo.png"></p>\n'), good
        kept = body(messages[f"<unresolvable@{DOMAIN}>"])
        assert kept == '<p><a href="archive.html">the archive</a></p>\n', kept
        with open(os.path.join(t, "maillog")) as f:
            log = f.read()
        # Each message: accepted by the filter (relay=linkbase, status=sent),
        # then delivered by virtual(8); no bounce, no deferral.
        assert log.count("relay=linkbase") == 2 and "status=sent (delivered via linkbase service" in log, log
        assert log.count("relay=virtual") == 2, log
        for word in ("status=bounced", "status=deferred", "NDR", "fatal:", "panic:"):
            assert word not in log, f"{word} in the mail log:\n{log}"
        queue = subprocess.run(["postqueue", "-c", conf, "-p"], capture_output=True, text=True)
        assert "Mail queue is empty" in queue.stdout, queue.stdout
        print(f"postfix: 2 messages sent by SMTP, filtered by linkbase --filter and "
              f"delivered into the Maildir (one with an unresolvable link, not bounced) "
              f"in {time.monotonic() - began:.1f} s")
    finally:
        if started:
            postfix(conf, "stop", check=False)

            def stopped():
                pid = os.path.join(t, "spool", "pid", "master.pid")
                try:
                    with open(pid) as f:
                        os.kill(int(f.read().split()[0]), 0)
                    return False
                except (OSError, ValueError):
                    return True

            try:
                wait_for("Postfix to stop", stopped, 30)
            except AssertionError:
                postfix(conf, "abort", check=False)
        if saved_cf is None:
            os.remove(default_cf)
        else:
            with open(default_cf, "wb") as f:
                f.write(saved_cf)
        shutil.rmtree(t, ignore_errors=True)


if __name__ == "__main__":
    main()
