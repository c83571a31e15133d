#!/usr/bin/env python3
"""A DNS server for the probe's tests: answers from a small zone file, on
loopback only, so that no test asks the system's resolver.

  dns-server.py --port-file FILE --zone FILE [--max-seconds 60]

It binds UDP (and TCP, for answers too big for a datagram, when the same
port is free) on 127.0.0.1 port 0, writes the port to --port-file, and
answers until killed or --max-seconds have passed.  Zone lines:

  NAME MX PREF HOST    an MX record ("NAME MX 0 ." is a null MX, RFC 7505)
  NAME A IP            an IPv4 address
  NAME AAAA IP         an IPv6 address
  NAME DROP            queries for NAME are never answered (a time-out)
  NAME JUNK            queries for NAME get a malformed answer
  NAME NONE            NAME exists with no records (NOERROR, no answer)

Names are compared without case and without a trailing dot; a name not in
the zone is NXDOMAIN, unless a name in the zone ends with it (".NAME": an
empty non-terminal, RFC 8020); a name in the zone without the type asked
gets NOERROR and no answer.  Answers are authoritative (AA) and copy the
query's ID, RD and question.  Queries that cannot be read are ignored.
"""
import argparse
import ipaddress
import os
import selectors
import socket
import struct
import sys
import time

TYPE_A, TYPE_MX, TYPE_AAAA, TYPE_OPT = 1, 15, 28, 41
CLASS_IN = 1
TTL = 60
UDP_PLAIN = 512  # RFC 1035 4.2.1, without EDNS


def key(name):
    return name.rstrip(".").lower()


def encode_name(name):
    name = name.rstrip(".")
    out = b""
    for label in name.split(".") if name else []:
        raw = label.encode("ascii")
        if not 0 < len(raw) < 64:
            raise ValueError("bad label in %r" % name)
        out += bytes([len(raw)]) + raw
    return out + b"\0"


def load_zone(path):
    """{name: {"records": [(type, rdata)], "drop": bool, "junk": bool}}"""
    zone = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            try:
                name, kind = words[0], words[1].upper()
                entry = zone.setdefault(key(name), {"records": [],
                                                    "drop": False,
                                                    "junk": False})
                if kind == "DROP" and len(words) == 2:
                    entry["drop"] = True
                elif kind == "JUNK" and len(words) == 2:
                    entry["junk"] = True
                elif kind == "NONE" and len(words) == 2:
                    pass
                elif kind == "MX" and len(words) == 4:
                    pref = int(words[2])
                    if not 0 <= pref <= 65535:
                        raise ValueError("preference out of range")
                    entry["records"].append(
                        (TYPE_MX, struct.pack("!H", pref)
                         + encode_name(words[3])))
                elif kind == "A" and len(words) == 3:
                    entry["records"].append(
                        (TYPE_A, ipaddress.IPv4Address(words[2]).packed))
                elif kind == "AAAA" and len(words) == 3:
                    entry["records"].append(
                        (TYPE_AAAA, ipaddress.IPv6Address(words[2]).packed))
                else:
                    raise ValueError("expected NAME MX PREF HOST, NAME A IP, "
                                     "NAME AAAA IP, NAME DROP, NAME JUNK or NAME NONE")
            except (IndexError, ValueError) as e:
                sys.exit("dns-server.py: %s:%d: %s" % (path, number, e))
    return zone


def read_name(msg, at):
    """The name at msg[at:] (no compression in a query) and where it ends."""
    labels = []
    while True:
        if at >= len(msg):
            raise ValueError("name runs past the end")
        n = msg[at]
        at += 1
        if n == 0:
            return ".".join(labels), at
        if n >= 64 or at + n > len(msg):
            raise ValueError("bad label")
        labels.append(msg[at:at + n].decode("ascii", "replace"))
        at += n


def parse_query(msg):
    """(id, rd, question bytes, name, qtype, EDNS size or None), or
    ValueError when msg is not a query we answer."""
    if len(msg) < 12:
        raise ValueError("short")
    qid, flags, qd, an, ns, ar = struct.unpack("!6H", msg[:12])
    if flags & 0x8000 or (flags >> 11) & 0xF or qd != 1 or an or ns:
        raise ValueError("not a standard query")
    name, at = read_name(msg, 12)
    if at + 4 > len(msg):
        raise ValueError("short question")
    qtype, qclass = struct.unpack("!HH", msg[at:at + 4])
    question = msg[12:at + 4]
    edns = None
    at += 4
    if ar >= 1 and at + 11 <= len(msg) and msg[at] == 0:
        rtype, size = struct.unpack("!HH", msg[at + 1:at + 5])
        if rtype == TYPE_OPT:
            edns = size
    if qclass != CLASS_IN:
        raise ValueError("not class IN")
    return qid, flags & 0x0100, question, name, qtype, edns


def answer(zone, msg, limit):
    """The reply to msg (bytes), or None for no reply at all."""
    try:
        qid, rd, question, name, qtype, edns = parse_query(msg)
    except ValueError:
        return None
    entry = zone.get(key(name))
    if entry is None and any(k.endswith("." + key(name)) for k in zone):
        entry = {"records": [], "drop": False, "junk": False}
    if entry and entry["drop"]:
        return None
    flags = 0x8000 | 0x0400 | rd | 0x0080  # QR, AA, RD as asked, RA
    if entry and entry["junk"]:
        # claims two answers, holds half of one
        return struct.pack("!6H", qid, flags, 1, 2, 0, 0) + question \
            + b"\xc0\x0c\x00"
    if entry is None:
        return struct.pack("!6H", qid, flags | 3, 1, 0, 0, 0) + question
    if limit is None:
        limit = max(UDP_PLAIN, edns or 0)
    records = b""
    count = 0
    for rtype, rdata in entry["records"]:
        if rtype != qtype:
            continue
        rr = struct.pack("!HHHIH", 0xC00C, rtype, CLASS_IN, TTL,
                         len(rdata)) + rdata
        if 12 + len(question) + len(records) + len(rr) > limit:
            flags |= 0x0200  # TC: the client asks again over TCP
            break
        records += rr
        count += 1
    return struct.pack("!6H", qid, flags, 1, count, 0, 0) + question + records


def serve_tcp(zone, conn, deadline):
    """One query over TCP (RFC 1035 4.2.2: a two-byte length first)."""
    conn.settimeout(max(0.1, min(5.0, deadline - time.monotonic())))
    try:
        data = b""
        while len(data) < 2 or len(data) < 2 + struct.unpack(
                "!H", data[:2])[0]:
            chunk = conn.recv(65537)
            if not chunk:
                return
            data += chunk
        size = struct.unpack("!H", data[:2])[0]
        reply = answer(zone, data[2:2 + size], 65535)
        if reply is not None:
            conn.sendall(struct.pack("!H", len(reply)) + reply)
    except OSError:
        pass
    finally:
        conn.close()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--port-file", required=True)
    p.add_argument("--zone", required=True)
    p.add_argument("--max-seconds", type=float, default=60)
    args = p.parse_args()
    zone = load_zone(args.zone)

    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    port = udp.getsockname()[1]
    tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        tcp.bind(("127.0.0.1", port))
        tcp.listen(8)
    except OSError:
        tcp.close()
        tcp = None
    tmp = args.port_file + ".tmp"
    with open(tmp, "w", encoding="ascii") as f:
        f.write("%d\n" % port)
    os.replace(tmp, args.port_file)  # whole, or not there yet

    deadline = time.monotonic() + args.max_seconds
    sel = selectors.DefaultSelector()
    sel.register(udp, selectors.EVENT_READ)
    if tcp:
        sel.register(tcp, selectors.EVENT_READ)
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return 0
        for ready, _ in sel.select(left):
            if ready.fileobj is udp:
                try:
                    msg, peer = udp.recvfrom(65535)
                except OSError:
                    continue
                reply = answer(zone, msg, None)
                if reply is not None:
                    try:
                        udp.sendto(reply, peer)
                    except OSError:
                        pass
            else:
                try:
                    conn, _ = tcp.accept()
                except OSError:
                    continue
                serve_tcp(zone, conn, deadline)


if __name__ == "__main__":
    sys.exit(main())
