# The S3 server for tests (see object-stores.ts): moto's server, in memory, on a free loopback port. It prints one
# JSON line on stdout ({"endpoint", "accessKeyId", "secretAccessKey"} once it serves, or {"error"}) and serves until
# SIGTERM, which the watcher in object-stores-process.ts sends when the test run ends or dies.
import json
import signal
import sys
import threading
from urllib.parse import quote, unquote

try:
    import boto3
    from moto import settings
    from moto.iam import access_control
    from moto.server import ThreadedMotoServer
except ImportError as err:
    print(json.dumps({"error": f"moto is not installed ({err})"}), flush=True)
    sys.exit(1)

# moto accepts any keys unless IAM auth is on; with it on, every request after the first few must be signed by a
# key that exists in its IAM. The first three requests (below) create that key; a fault test relies on the rest
# failing with wrong credentials.
BOOTSTRAP_REQUESTS = 3
settings.INITIAL_NO_AUTH_ACTION_COUNT = BOOTSTRAP_REQUESTS

# moto re-signs a request from its query string as the server decoded it, so a query value with a "/" in it
# (ListObjectsV2's prefix=dir/) never matched the client's signature. SigV4 signs each name and value
# percent-encoded; re-encode them before moto computes its side.
_iam_request_init = access_control.IAMRequestBase.__init__


def _init_with_canonical_query(self, account_id, method, path, *args, **kwargs):
    base, sep, query = path.partition("?")
    if query:
        pairs = (pair.partition("=") for pair in query.split("&"))
        query = "&".join(
            f"{quote(unquote(name), safe='-_.~')}{eq}{quote(unquote(value), safe='-_.~')}" for name, eq, value in pairs
        )
    _iam_request_init(self, account_id, method, base + sep + query, *args, **kwargs)


access_control.IAMRequestBase.__init__ = _init_with_canonical_query

ALLOW_ALL = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]}


def main():
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    _, port = server.get_host_and_port()
    endpoint = f"http://127.0.0.1:{port}"
    try:
        iam = boto3.client(
            "iam", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="bootstrap", aws_secret_access_key="bootstrap"
        )
        iam.create_user(UserName="deltaport-test")
        iam.put_user_policy(UserName="deltaport-test", PolicyName="all", PolicyDocument=json.dumps(ALLOW_ALL))
        key = iam.create_access_key(UserName="deltaport-test")["AccessKey"]
    except Exception as err:  # noqa: BLE001 - any failure here is reported to the parent in one line
        print(json.dumps({"error": f"could not create the test credentials: {err}"}), flush=True)
        server.stop()
        sys.exit(1)
    print(json.dumps({"endpoint": endpoint, "accessKeyId": key["AccessKeyId"], "secretAccessKey": key["SecretAccessKey"]}), flush=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        threading.Event().wait()
    finally:
        server.stop()


main()
