#!/usr/bin/env python3
"""A scripted SMTP server for the probe's tests, on loopback.

It binds port 0 (or --bind-port) on --host, writes the port it got to --port-file, and
serves connections one at a time until it is killed or --max-seconds have
passed.  The default replies accept everything; --reply STEP=TEXT changes
one (TEXT may hold a backslash and n, "250-a\\n250 b", for a multi-line
reply), --then-after N with --then STEP=TEXT changes them from the N+1th
connection on (a --watch test: refused N times, then accepted).  --cert and
--key offer STARTTLS, or with --tls-on-connect take TLS at once, before
the banner (port 465's implicit TLS); --bad-tls offers STARTTLS and
answers the handshake with garbage; --silent, --cut and --flood make servers that never answer, cut a
reply short, or send an endless one.  --log FILE gets each command line
received, one a line, before TLS and after it, so that a test can check
that QUIT was sent and DATA never was.

Python 3's standard library only.  Every wait is bounded by --max-seconds
and every read by the length of a command line.
"""

import argparse
import os
import signal
import socket
import ssl
import sys
import time

STEPS = ("banner", "ehlo", "helo", "mail", "rcpt", "rset", "quit", "starttls")

DEFAULTS = {
    "banner": "220 mx.test ESMTP smtpcode-test",
    "ehlo": None,  # made by ehlo_reply(): it depends on TLS
    "helo": "250 mx.test",
    "mail": "250 2.1.0 Ok",
    "rcpt": "250 2.1.5 Ok",
    "rset": "250 2.0.0 Ok",
    "quit": "221 2.0.0 Bye",
    "starttls": "220 2.0.0 Ready to start TLS",
}
DATA_REPLY = "554 5.5.1 no DATA in tests"
UNKNOWN_REPLY = "502 5.5.2 Command not recognized"
TOO_LONG_REPLY = "500 5.5.2 Line too long"

# RFC 5321 4.5.3.1.4 allows 512 octets a command line; more than this is
# read no further and ends the connection.
LINE_MAX = 4096
# The bytes sent instead of a TLS handshake by --bad-tls: not a TLS record.
GARBAGE = b"this is not TLS\r\n" * 8


class Closed(Exception):
    """The client closed the connection, or the time is up."""


def step_text(arg):
    """STEP=TEXT for --reply and --then."""
    step, sep, text = arg.partition("=")
    step = step.lower()
    if not sep or step not in STEPS:
        raise argparse.ArgumentTypeError(
            "'%s' is not STEP=TEXT with STEP one of %s" % (arg, ", ".join(STEPS)))
    return step, text.replace("\\n", "\n")


def parse_args():
    p = argparse.ArgumentParser(description="a scripted SMTP server for tests")
    p.add_argument("--port-file", required=True)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--bind-port", type=int, default=0)
    p.add_argument("--log")
    p.add_argument("--cert")
    p.add_argument("--key")
    p.add_argument("--reply", type=step_text, action="append", default=[])
    p.add_argument("--then-after", type=int, default=None, metavar="N")
    p.add_argument("--then", type=step_text, action="append", default=[])
    p.add_argument("--silent", action="store_true")
    p.add_argument("--cut", action="store_true")
    p.add_argument("--flood", type=int, default=None, metavar="BYTES")
    p.add_argument("--bad-tls", action="store_true")
    p.add_argument("--tls-on-connect", action="store_true")
    p.add_argument("--max-seconds", type=float, default=60.0)
    a = p.parse_args()
    if bool(a.cert) != bool(a.key):
        p.error("--cert and --key go together")
    if a.tls_on_connect and not a.cert:
        p.error("--tls-on-connect needs --cert and --key")
    if (a.then_after is None) != (not a.then):
        p.error("--then-after and --then go together")
    if a.flood is not None and a.flood < 0:
        p.error("--flood takes a number of bytes")
    return a


class Server:
    def __init__(self, args):
        self.args = args
        self.end = time.monotonic() + args.max_seconds
        self.tls = None
        if args.cert:
            self.tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            self.tls.load_cert_chain(args.cert, args.key)
        self.connections = 0

    def left(self):
        left = self.end - time.monotonic()
        if left <= 0:
            raise Closed()
        return left

    def log(self, line):
        if self.args.log:
            with open(self.args.log, "a", encoding="utf-8") as f:
                f.write(line + "\n")

    def replies(self):
        """The replies of this connection: --then's after --then-after."""
        r = dict(DEFAULTS)
        chosen = self.args.reply
        if self.args.then_after is not None and self.connections > self.args.then_after:
            chosen = self.args.then
        # --reply ehlo=... replaces the whole EHLO reply.
        for step, text in chosen:
            r[step] = text
        return r

    def offers_tls(self):
        return self.tls is not None or self.args.bad_tls

    def ehlo_reply(self, replies, in_tls):
        if replies["ehlo"] is not None:
            return replies["ehlo"]
        lines = ["250-mx.test", "250-PIPELINING", "250-SIZE 10240000"]
        if self.offers_tls() and not in_tls:
            lines.append("250-STARTTLS")
        lines.append("250 8BITMIME")
        return "\n".join(lines)

    # The connection's socket, plain or TLS, and what was read of it.
    def send(self, conn, text):
        conn.settimeout(self.left())
        conn.sendall("".join(line + "\r\n" for line in text.split("\n")).encode())

    def readline(self, conn, buf):
        """One command line, without its line end, and the bytes after it.
        A bare LF ends a line too."""
        while b"\n" not in buf:
            if len(buf) > LINE_MAX:
                return None, b""
            conn.settimeout(self.left())
            data = conn.recv(LINE_MAX + 1 - len(buf))
            if not data:
                raise Closed()
            buf += data
        line, _, rest = buf.partition(b"\n")
        if len(line) > LINE_MAX:
            return None, b""
        return line.rstrip(b"\r").decode("latin-1"), rest

    def serve(self, conn):
        a = self.args
        if a.silent:
            # Read and drop what comes, never answer, until the client
            # leaves or the time is up.
            while True:
                conn.settimeout(self.left())
                if not conn.recv(4096):
                    return
        if a.cut:
            conn.sendall(b"220-first line\r\n220-sec")
            return
        if a.flood is not None:
            self.flood(conn, a.flood)
            return
        replies = self.replies()
        in_tls = False
        if a.tls_on_connect:
            conn.settimeout(self.left())
            conn = self.tls.wrap_socket(conn, server_side=True)
            self.conn = conn
            in_tls = True
        self.send(conn, replies["banner"])
        buf = b""
        while True:
            line, buf = self.readline(conn, buf)
            if line is None:
                self.log("(a line longer than %d bytes)" % LINE_MAX)
                self.send(conn, TOO_LONG_REPLY)
                return
            self.log(line)
            verb = line.split(" ", 1)[0].upper()
            if verb == "EHLO":
                self.send(conn, self.ehlo_reply(replies, in_tls))
            elif verb == "HELO":
                self.send(conn, replies["helo"])
            elif verb == "MAIL":
                self.send(conn, replies["mail"])
            elif verb == "RCPT":
                self.send(conn, replies["rcpt"])
            elif verb == "RSET":
                self.send(conn, replies["rset"])
            elif verb == "DATA":
                self.send(conn, DATA_REPLY)
            elif verb == "QUIT":
                self.send(conn, replies["quit"])
                return
            elif verb == "STARTTLS" and not in_tls and self.offers_tls():
                self.send(conn, replies["starttls"])
                if not replies["starttls"].startswith("2"):
                    continue
                if a.bad_tls:
                    # The garbage answers the client's first handshake
                    # bytes: sent with the 220, it could be read as the
                    # rest of the reply and dropped by the client.
                    conn.settimeout(self.left())
                    if not conn.recv(16384):
                        return
                    conn.sendall(GARBAGE)
                    return
                # Bytes sent after STARTTLS and before the handshake are
                # dropped (RFC 3207 4.2: a command injection otherwise).
                buf = b""
                conn.settimeout(self.left())
                conn = self.tls.wrap_socket(conn, server_side=True)
                self.conn = conn
                in_tls = True
            else:
                self.send(conn, UNKNOWN_REPLY)

    def flood(self, conn, total):
        """total bytes of "220-" lines: a banner that never ends."""
        line = b"220-" + b"x" * 70 + b"\r\n"
        sent = 0
        while sent < total:
            chunk = line * 64
            chunk = chunk[:total - sent]
            conn.settimeout(self.left())
            conn.sendall(chunk)
            sent += len(chunk)

    def run(self):
        family = socket.AF_INET6 if ":" in self.args.host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as listener:
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind((self.args.host, self.args.bind_port))
            listener.listen(8)
            port = listener.getsockname()[1]
            # Written whole, then renamed: a test waiting for the file
            # never reads half of it.
            tmp = self.args.port_file + ".tmp"
            with open(tmp, "w", encoding="ascii") as f:
                f.write("%d\n" % port)
            os.replace(tmp, self.args.port_file)
            while True:
                try:
                    listener.settimeout(self.left())
                    conn, _ = listener.accept()
                except (Closed, socket.timeout):
                    return
                self.connections += 1
                self.conn = conn
                try:
                    self.serve(conn)
                    self.finish(self.conn)
                except (Closed, OSError):
                    # The client left, broke the handshake (ssl.SSLError
                    # is an OSError), or the time is up: the next
                    # connection, if any time is left.
                    pass
                finally:
                    self.conn.close()

    def finish(self, conn):
        """Close the way a server does after its last reply: no more bytes
        from here, then what the client still sends is read and dropped
        until it closes too (bounded), so that closing with unread bytes
        does not reset the connection before the client read the end.
        Over TLS, close_notify first, as a careful server does (the
        client's close_notify ends the wait)."""
        end = min(self.end, time.monotonic() + 5)
        if isinstance(conn, ssl.SSLSocket):
            conn.settimeout(max(end - time.monotonic(), 0.001))
            conn = conn.unwrap()
        conn.shutdown(socket.SHUT_WR)
        for _ in range(256):
            left = end - time.monotonic()
            if left <= 0:
                return
            conn.settimeout(left)
            if not conn.recv(4096):
                return


def main():
    # SIGTERM and SIGINT end the server quietly: tests kill it.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    signal.signal(signal.SIGINT, lambda *_: sys.exit(0))
    Server(parse_args()).run()


if __name__ == "__main__":
    main()
