# SPDX-License-Identifier: GPL-3.0-or-later
# A local HTTP server for the stream tests: serves a folder on 127.0.0.1,
# prints its port, and logs every request (path and bytes sent) to a file.
# An optional third argument injects faults: PATH=FAULT[,PATH=FAULT...] with
# FAULT one of 404, 500 (always), 500x2 (the first two requests only),
# reset (connection closed without an answer), truncate (half the body),
# stallN (wait N seconds, then answer), endless (the file's bytes over and
# over with no length, as a live server's segment that never ends, up to
# 64 MB or until the client goes).
import http.server, os, sys, time, functools

folder, log = sys.argv[1], sys.argv[2]
faults = dict(item.split("=", 1) for item in sys.argv[3].split(",")) if len(sys.argv) > 3 and sys.argv[3] else {}
served = {}

class Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def copyfile(self, source, outputfile):
        data = source.read()
        outputfile.write(data)
        with open(log, "a") as f:
            f.write(f"{self.path} {len(data)}\n")

    def do_GET(self):
        fault = faults.get(self.path)
        served[self.path] = served.get(self.path, 0) + 1
        if fault is not None:
            with open(log, "a") as out:
                out.write(f"{self.path} fault-{fault}\n")
        if fault in ("404", "500") or (fault == "500x2" and served[self.path] <= 2):
            self.send_error(int(fault[:3]))
            return
        if fault is not None and fault.startswith("stall"):
            time.sleep(float(fault[5:]))
            super().do_GET()
            return
        if fault == "reset":
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if fault == "endless":
            path = self.translate_path(self.path)
            with open(path, "rb") as f:
                data = f.read()
            self.send_response(200)
            self.send_header("Content-Type", "video/mp2t")
            self.end_headers()
            sent = 0
            try:
                while sent < 64 << 20:
                    self.wfile.write(data)
                    sent += len(data)
            except (BrokenPipeError, ConnectionResetError):
                pass
            self.close_connection = True
            return
        if fault == "truncate":
            path = self.translate_path(self.path)
            with open(path, "rb") as f:
                data = f.read()
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data[: len(data) // 2])
            self.close_connection = True
            return
        super().do_GET()

    def send_head(self):
        f = super().send_head()
        if f is None:
            with open(log, "a") as out:
                out.write(f"{self.path} missing\n")
        return f

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=folder))
print(server.server_address[1], flush=True)
server.serve_forever()
