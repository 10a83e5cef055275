"""Drives a live Periscope server's inventory and clouds APIs with the real censys-python 2.1.9 AsmClient.

Reads PERISCOPE_URL, PERISCOPE_ASM_KEY, PERISCOPE_WORKSPACE (that key's workspace),
PERISCOPE_OTHER_WORKSPACE and HOST_IPS (comma-separated addresses to seed) from the environment and
prints one JSON object with what each step observed; the Node test asserts on it.
"""
import datetime
import os

from censys.common.exceptions import (
    CensysAsmException,
    CensysAsmUnauthorizedException,
    CensysInvalidDateException,
)

from asm_harness import asm_client, done, expect, out

WS = os.environ["PERISCOPE_WORKSPACE"]
OTHER_WS = os.environ["PERISCOPE_OTHER_WORKSPACE"]
IPS = os.environ["HOST_IPS"].split(",")

client = asm_client()
client.seeds.add_seeds([{"type": "IP_ADDRESS", "value": ip, "label": "inventory"} for ip in IPS], force=True)

inv = client.inventory
# 2.1.9 makes one request per call: the caller pages with nextCursor.
first = inv.search([WS], page_size=2)
out["first"] = first
ids = [h["asset_id"] for h in first["hits"]]
cursor = first.get("nextCursor")
pages = 1
while cursor:
    page = inv.search([WS], page_size=2, cursor=cursor)
    ids += [h["asset_id"] for h in page["hits"]]
    cursor = page.get("nextCursor")
    pages += 1
    if pages > 200:
        raise RuntimeError("inventory paging did not end")
out["paged_ids"] = ids
out["pages"] = pages
out["hosts_sorted"] = inv.search([WS], query="type: HOST", sort=["host.ip"], fields=["host.ip"], page_size=50)
out["by_ip"] = inv.search([WS], query=f"host.ip: {IPS[0]}")
out["agg_type"] = inv.aggregate([WS], aggregation={"term": {"field": "type", "numberOfBuckets": 10}})
out["agg_none"] = inv.aggregate([WS], query="type: HOST")
out["fields_all_count"] = len(inv.fields()["fields"])
out["fields_some"] = inv.fields(["host.ip", "domain.name"])
out["bad_query"] = expect(CensysAsmException, lambda: inv.search([WS], query="host.services.port: ("))
out["foreign_ws"] = expect(CensysAsmException, lambda: inv.search([OTHER_WS]))

clouds = client.clouds
out["host_counts"] = clouds.get_host_counts("2000-01-01")
out["host_counts_date"] = clouds.get_host_counts(datetime.date(2000, 1, 1))
out["host_counts_future"] = clouds.get_host_counts(datetime.datetime(2999, 1, 1))
out["domain_counts"] = clouds.get_domain_counts("2000-01-01")
out["object_store_counts"] = clouds.get_object_store_counts("2000-01-01")
out["subdomain_counts"] = clouds.get_subdomain_counts("2000-01-01")
out["unknown_counts"] = clouds.get_unknown_counts()
out["bad_date"] = expect(CensysInvalidDateException, lambda: clouds.get_host_counts("2000-02-30"))
out["unauthorized_class"] = CensysAsmUnauthorizedException.__name__

done()
