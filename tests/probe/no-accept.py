#!/usr/bin/env python3
"""A listener that never accepts, for the probe's connect time-out.

It binds --host:--bind-port with a backlog of 0, fills that backlog with
connections of its own that it never accepts, writes the port to
--port-file, and waits --max-seconds.  Linux then drops a new client's SYN
instead of refusing it, so a connect waits and times out, as towards a
network that drops outgoing port 25.  Python 3's standard library only.
"""

import argparse
import os
import socket
import time


def main():
    p = argparse.ArgumentParser(description="a listener that never accepts")
    p.add_argument("--port-file", required=True)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--bind-port", type=int, default=0)
    p.add_argument("--max-seconds", type=float, default=30.0)
    a = p.parse_args()
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((a.host, a.bind_port))
    listener.listen(0)
    port = listener.getsockname()[1]
    # Enough connections to fill the queue whatever the kernel adds to a
    # backlog of 0; each waits at most a second.
    fillers = []
    for _ in range(4):
        c = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        c.setblocking(False)
        try:
            c.connect((a.host, port))
        except (BlockingIOError, InterruptedError):
            pass
        fillers.append(c)
    time.sleep(0.2)
    tmp = a.port_file + ".tmp"
    with open(tmp, "w", encoding="ascii") as f:
        f.write("%d\n" % port)
    os.replace(tmp, a.port_file)
    time.sleep(a.max_seconds)


if __name__ == "__main__":
    main()
