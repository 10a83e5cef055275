"""What every test/compat/asm_*_2_1_9.py script shares.

Each script drives a live Periscope server with the real censys-python 2.1.9 AsmClient, records
what each step observed in ``out`` and prints it as one JSON object for the Node test to assert
on. Scripts run by path (``python3 test/compat/asm_x_2_1_9.py``), so this folder is on sys.path
and ``from asm_harness import ...`` finds this module.
"""
import json
import os

from censys.asm import AsmClient
from censys.common.version import __version__ as CENSYS_VERSION

URL = os.environ["PERISCOPE_URL"]
KEY = os.environ["PERISCOPE_ASM_KEY"]
# Another workspace's key; not every script is given one.
OTHER_KEY = os.environ.get("PERISCOPE_OTHER_ASM_KEY")
out = {"client_version": CENSYS_VERSION}


def asm_client(key=KEY):
    # max_retries=1: no 10039 is expected, and one must not be retried for 30 s if it came.
    return AsmClient(api_key=key, url=URL, max_retries=1)


def expect(exc_type, fn, text=True):
    """What ``fn`` raised of ``exc_type``; any other exception propagates and fails the run."""
    try:
        fn()
    except exc_type as e:
        seen = {
            "raised": type(e).__name__,
            "status": getattr(e, "status_code", None),
            "error_code": getattr(e, "error_code", None),
        }
        if text:
            seen["text"] = str(e)
        return seen
    return {"raised": None}


def done():
    print(json.dumps(out))
