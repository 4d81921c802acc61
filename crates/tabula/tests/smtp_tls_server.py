"""A submission server as mail providers run them, for the relay tests.

aiosmtpd with a certificate and a login: `starttls` offers STARTTLS and
takes neither a login nor a message before it; `tls` speaks TLS from the
start (port 465 style); `plain` offers no TLS at all (and no login). Each
message is written to DIR as a JSON file with its envelope, whether the
connection was encrypted and as whom it was logged in; each login attempt
is appended to DIR/logins (user, and whether it was accepted).

    smtp_tls_server.py MODE PORT CERT KEY USER PASSWORD DIR
"""

import asyncio
import json
import os
import socket
import ssl
import sys
import uuid

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


def main():
    mode, port, cert, key, user, password, out = sys.argv[1:8]
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)

    def authenticator(server, session, envelope, mechanism, data):
        ok = (
            isinstance(data, LoginPassword)
            and data.login.decode() == user
            and data.password.decode() == password
        )
        who = data.login.decode() if isinstance(data, LoginPassword) else "?"
        with open(os.path.join(out, "logins"), "a") as f:
            f.write(json.dumps({"user": who, "accepted": ok, "mechanism": mechanism}) + "\n")
        return AuthResult(success=ok, handled=False, auth_data=who if ok else None)

    class Handler:
        async def handle_DATA(self, server, session, envelope):
            record = {
                "from": envelope.mail_from,
                "to": envelope.rcpt_tos,
                "encrypted": server.transport.get_extra_info("ssl_object") is not None,
                "login": session.auth_data if session.authenticated else None,
                "authenticated": bool(session.authenticated),
                "data": envelope.content.decode("utf-8", "replace"),
            }
            path = os.path.join(out, uuid.uuid4().hex + ".json")
            with open(path + ".tmp", "w") as f:
                json.dump(record, f)
            os.rename(path + ".tmp", path)
            return "250 OK"

    options = dict(hostname="127.0.0.1", port=int(port), server_hostname="mail.test")
    if mode == "starttls":
        options.update(
            tls_context=context,
            require_starttls=True,
            auth_required=True,
            auth_require_tls=True,
            authenticator=authenticator,
        )
    elif mode == "tls":
        options.update(
            ssl_context=context,
            auth_required=True,
            auth_require_tls=False,
            authenticator=authenticator,
        )
    elif mode != "plain":
        sys.exit(f"unknown mode {mode}")
    controller = Controller(Handler(), ready_timeout=30, **options)
    if mode == "tls":
        # The readiness probe of Controller.start() speaks plain SMTP, which
        # a TLS listener cannot answer: probe over TLS instead.
        def probe():
            client = ssl.create_default_context()
            client.check_hostname = False
            client.verify_mode = ssl.CERT_NONE
            with socket.create_connection(("127.0.0.1", int(port)), 5) as raw:
                with client.wrap_socket(raw) as tls:
                    tls.recv(1024)

        controller._trigger_server = probe
    controller.start()
    print("ready", flush=True)
    try:
        asyncio.run(asyncio.Event().wait())
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
