# The S3 server for tests (see object-stores.ts): moto's server, in memory, on a free loopback port. It prints one
# JSON line on stdout ({"endpoint", "accessKeyId", "secretAccessKey"} once it serves, or {"error"}) and serves until
# SIGTERM, which the watcher in object-stores-process.ts sends when the test run ends or dies.
import json
import sys
import threading
from urllib.parse import quote, unquote, urlsplit, urlunsplit

try:
    import boto3
    from moto import settings
    from moto.core.authorization import ActionAuthenticatorMixin
    from moto.server import ThreadedMotoServer
except ImportError as err:
    print(json.dumps({"error": f"moto is not installed ({err})"}), flush=True)
    sys.exit(1)

# moto accepts any keys unless IAM auth is on; with it on, every request after the first few must be signed by a
# key that exists in its IAM. The first three requests (below) create that key; a fault test relies on the rest
# failing with wrong credentials.
BOOTSTRAP_REQUESTS = 3
settings.INITIAL_NO_AUTH_ACTION_COUNT = BOOTSTRAP_REQUESTS

# moto checks a signature by signing the request again from its URL as werkzeug decoded it, so keys with "=", "+" or
# "%" in them (Hive partition folders) and query values with "/" (ListObjectsV2's prefix=dir/) never matched. SigV4
# signs every path segment, query name and value percent-encoded once: give moto that form, from the raw request line.
def _canonical(part, keep=""):
    return quote(unquote(part), safe="-_.~" + keep)


def _with_raw_uri(self, iam_request_cls, resource="*"):
    raw = getattr(getattr(self, "request", None), "environ", {}).get("RAW_URI")
    if not raw:
        return _authenticate(self, iam_request_cls, resource)
    raw_path, _, raw_query = raw.partition("?")
    pairs = (pair.partition("=") for pair in raw_query.split("&") if pair)
    query = "&".join(f"{_canonical(name)}{eq}{_canonical(value)}" for name, eq, value in pairs)
    decoded_uri = self.uri
    self.uri = urlunsplit(urlsplit(decoded_uri)._replace(path=_canonical(raw_path, keep="/"), query=query))
    try:
        return _authenticate(self, iam_request_cls, resource)
    finally:
        self.uri = decoded_uri


_authenticate = ActionAuthenticatorMixin._authenticate_and_authorize_action
ActionAuthenticatorMixin._authenticate_and_authorize_action = _with_raw_uri

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
    # Everything is in memory: SIGTERM's default action, ending the process at once, is the whole shutdown.
    threading.Event().wait()


main()
