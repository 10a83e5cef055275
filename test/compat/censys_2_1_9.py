"""Drives a live Periscope server with the real censys-python client (Debian python3-censys 2.1.9).

Reads PERISCOPE_URL, PERISCOPE_API_ID/SECRET (admin), PERISCOPE_LOW_ID/SECRET (a user with a
tiny quota) and PERISCOPE_OTHER_ID/SECRET (a user of another workspace) from the environment and
prints one JSON object with what each step observed; the Node test asserts on it. Any exception
not expected by a step propagates, failing the run.
"""
import json
import os
import sys

from censys.common.version import __version__ as CENSYS_VERSION
from censys.common.exceptions import (
    CensysNotFoundException,
    CensysRateLimitExceededException,
    CensysSearchException,
    CensysUnauthorizedException,
)
from censys.search import CensysCertificates, CensysCerts, CensysHosts

URL = os.environ["PERISCOPE_URL"]
ID = os.environ["PERISCOPE_API_ID"]
SECRET = os.environ["PERISCOPE_API_SECRET"]
out = {"client_version": CENSYS_VERSION}


def expect(exc_type, fn):
    try:
        fn()
    except exc_type as e:
        return {"raised": type(e).__name__, "status": getattr(e, "status_code", None), "text": str(e)}
    return {"raised": None}


h = CensysHosts(api_id=ID, api_secret=SECRET, url=URL)

# Account
out["account"] = h.account()
out["quota"] = h.quota()

# Paging through a query with several pages (2.1.9 sends GET with the query string).
query = "services.service_name: HTTP and location.country: Germany"
ips = []
pages = 0
for page in h.search(query, per_page=10, pages=-1):
    pages += 1
    for hit in page:
        ips.append(hit["ip"] + ("+" + hit["name"] if "name" in hit else ""))
first = h.search(query, per_page=10).__call__()
out["paging"] = {"pages": pages, "ids": ips, "first_page": first}
out["total"] = h.raw_search(query, per_page=10)["result"]["total"]

# fields, sort and virtual hosts pass through as query parameters.
out["fields_hit"] = h.search("services.port: 443", per_page=1, fields=["ip", "services.port"]).__call__()[0]
vhosts = h.search("services.service_name: HTTP", per_page=5, virtual_hosts="ONLY").__call__()
out["vhost_hits"] = vhosts

# View: a host, a virtual host, and a host at a past time.
sample = ips[0]
out["view"] = h.view(sample)
if vhosts:
    out["view_vhost"] = h.view(vhosts[0]["ip"] + "+" + vhosts[0]["name"])
out["view_at"] = h.view(os.environ["PERISCOPE_HISTORY_IP"], at_time=os.environ["PERISCOPE_HISTORY_AT"])
out["view_now"] = h.view(os.environ["PERISCOPE_HISTORY_IP"])
out["names"] = h.view_host_names(sample)
out["diff"] = h.view_host_diff(os.environ["PERISCOPE_HISTORY_IP"], at_time=os.environ["PERISCOPE_HISTORY_AT"])
out["events"] = h.view_host_events(os.environ["PERISCOPE_HISTORY_IP"])
out["metadata"] = h.metadata()
out["bulk_view"] = sorted(h.bulk_view(ips[:3]).keys())

# Aggregate
out["aggregate"] = h.aggregate("services.service_name: HTTP", "services.port", num_buckets=5)

# Comments on a host
c = h.add_comment(sample, "**first** comment")
out["comment_added"] = c
out["comment_updated"] = h.update_comment(sample, c["id"], "edited")
out["comments"] = h.get_comments(sample)
h.delete_comment(sample, c["id"])
out["comments_after_delete"] = h.get_comments(sample)

# Tags
tag = h.create_tag("compat-tag", "#ff0000")
out["tag_created"] = tag
h.add_tag_to_document(sample, tag["id"])
out["tags_on_host"] = h.list_tags_on_document(sample)
out["hosts_with_tag"] = h.list_hosts_with_tag(tag["id"])
out["tag_updated"] = h.update_tag(tag["id"], "compat-tag-2", "#00ff00")
out["tag_get"] = h.get_tag(tag["id"])
out["all_tags"] = h.list_all_tags()
h.remove_tag_from_document(sample, tag["id"])
out["tags_after_untag"] = h.list_tags_on_document(sample)

# Certificates: the v2 class's endpoints that 2.1.9 implements, and the v1 class.
cv2 = CensysCerts(api_id=ID, api_secret=SECRET, url=URL)
fp = out["view"]["services"][0].get("certificate") if out["view"].get("services") else None
tls_hit = h.search("services.certificate: *", per_page=1).__call__()[0]
fp = next(s["certificate"] for s in tls_hit["services"] if s.get("certificate"))
out["cert_fp"] = fp
out["hosts_by_cert"] = cv2.get_hosts_by_cert(fp)
ctag = cv2.create_tag("cert-tag")
cv2.add_tag_to_document(fp, ctag["id"])
out["certs_with_tag"] = cv2.list_certs_with_tag(ctag["id"])
cv2.add_comment(fp, "cert comment")
out["cert_comments"] = cv2.get_comments(fp)

v1 = CensysCertificates(api_id=ID, api_secret=SECRET, url=URL + "/v1")
domain = os.environ["PERISCOPE_DOMAIN"]
v1_results = list(v1.search("parsed.names: " + domain, fields=["parsed.names", "parsed.fingerprint_sha256"], max_records=250))
out["v1_search"] = v1_results
# Every certificate, over several v1 pages of 100.
out["v1_all"] = [r["parsed.fingerprint_sha256"] for r in v1.search("", fields=["parsed.fingerprint_sha256"])]
out["v1_metadata"] = v1.metadata("parsed.names: " + domain)
out["v1_view"] = v1.view(fp)
out["v1_report"] = v1.report("", "parsed.issuer.organization", buckets=5)
out["v1_bulk"] = v1.bulk([fp, "0" * 64])

# Errors and the exception classes the client maps them to.
bad = CensysHosts(api_id=ID, api_secret="wrong", url=URL)
out["err_401"] = expect(CensysUnauthorizedException, bad.account)
out["err_404"] = expect(CensysNotFoundException, lambda: h.view("192.0.2.123"))
out["err_422"] = expect(CensysSearchException, lambda: h.raw_search("ip: *", cursor="not-a-cursor"))
out["err_400"] = expect(CensysSearchException, lambda: h.raw_search("services.servce_name: HTTP"))
low = CensysHosts(api_id=os.environ["PERISCOPE_LOW_ID"], api_secret=os.environ["PERISCOPE_LOW_SECRET"], url=URL, max_retries=1)
low.raw_search("ip: *", per_page=1)
out["err_429"] = expect(CensysRateLimitExceededException, lambda: low.raw_search("ip: *", per_page=1))

# Another workspace sees none of this workspace's tags or comments.
other = CensysHosts(api_id=os.environ["PERISCOPE_OTHER_ID"], api_secret=os.environ["PERISCOPE_OTHER_SECRET"], url=URL)
out["other_tags"] = other.list_all_tags()
out["other_cert_comments"] = CensysCerts(api_id=os.environ["PERISCOPE_OTHER_ID"], api_secret=os.environ["PERISCOPE_OTHER_SECRET"], url=URL).get_comments(fp)

json.dump(out, sys.stdout)
