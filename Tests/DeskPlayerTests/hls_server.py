# A local HTTP server for the stream tests: serves a folder on 127.0.0.1,
# prints its port, and logs every request (path and bytes sent) to a file.
import http.server, os, sys, functools

folder, log = sys.argv[1], sys.argv[2]

class Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def copyfile(self, source, outputfile):
        data = source.read()
        outputfile.write(data)
        with open(log, "a") as f:
            f.write(f"{self.path} {len(data)}\n")

    def send_head(self):
        f = super().send_head()
        if f is None:
            with open(log, "a") as out:
                out.write(f"{self.path} missing\n")
        return f

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=folder))
print(server.server_address[1], flush=True)
server.serve_forever()
