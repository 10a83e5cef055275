"""Drives a live Periscope server's risk endpoints with the real censys-python 2.1.9 client.

The Node side has put scan data through the indexer; this script adds the seeds (discovery and
risk evaluation run before the seed request returns), then uses Risksv2 (AsmClient.risks) and
Risksv1 as a user would. Reads PERISCOPE_URL, PERISCOPE_ASM_KEY, PERISCOPE_OTHER_ASM_KEY and prints
one JSON object with what each step observed; the Node test asserts on it.
"""
import os
import warnings

from censys.asm.risks import Risksv1, Risksv2
from censys.common.exceptions import (
    CensysInvalidCloudException,
    CensysInvalidPageSizeException,
    CensysRiskNotFoundException,
)

from asm_harness import KEY, OTHER_KEY, URL, asm_client, done, expect, out

SEED_IPS = os.environ["PERISCOPE_SEED_IPS"].split(",")

client = asm_client()
out["seeded"] = client.seeds.add_seeds(
    [{"type": "IP_ADDRESS", "value": ip, "label": "risks"} for ip in SEED_IPS], force=True
)

risks = client.risks
out["is_v2"] = isinstance(risks, Risksv2)
out["instances"] = risks.get_risk_instances()
out["instances_events"] = risks.get_risk_instances(include_events=True)
by_type = {r["typeID"]: r for r in out["instances"]["risks"]}
telnet = by_type["service.remote_access.telnet_exposed"]["id"]
redis = by_type["service.database.redis_exposed"]["id"]
out["instance"] = risks.get_risk_instance(telnet, include_events=True)
out["patch_one"] = risks.patch_risk_instance(telnet, {"userStatus": "investigating", "severity": "accepted"})
out["patch_many"] = risks.patch_risk_instances({"ids": [telnet, redis, 987654321], "categories": ["Triage"]})
out["after_patch"] = risks.get_risk_instance(telnet)
out["search"] = risks.search_risk_instances(
    {
        "fields": ["id", "context", "type", "metadata", "events"],
        "limit": 1000,
        "page": 1,
        "query": {"field": "firstComputedAt", "operator": "=", "value": out["instance"]["firstComputedAt"]},
        "sort": ["severity", {"context.type": "asc"}],
    }
)
out["types"] = risks.get_risk_types(sort=["severity:desc", "type:asc"], include_events=False)
out["type"] = risks.get_risk_type("service.remote_access.telnet_exposed", include_events=True)
out["type_patch"] = risks.patch_risk_type("service.remote_access.rdp_exposed", {"enabled": False, "reason": "VPN only"})
out["type_after"] = risks.get_risk_type("service.remote_access.rdp_exposed", include_events=True)
out["instances_after_disable"] = risks.get_risk_instances()

out["err_instance"] = expect(CensysRiskNotFoundException, lambda: risks.get_risk_instance(987654321))
# 2.1.9 puts the type into the path unescaped: a `/` in it reaches the server as a path separator.
out["err_type"] = expect(CensysRiskNotFoundException, lambda: risks.get_risk_type("vendor/unknown-risk"))

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    v1 = Risksv1(api_key=KEY, url=URL, max_retries=1)
    out["v1_all"] = list(v1.get_risks())
    out["v1_paged"] = list(v1.get_risks(page_size=1))
    out["v1_accepted"] = list(v1.get_risks(include_accepted_risks=True))
    out["v1_cloud"] = list(v1.get_risks(cloud="Amazon AWS"))
    out["v1_cloud_accepted"] = list(v1.get_risks(cloud="Amazon AWS", include_accepted_risks=True))
    out["v1_other_env"] = list(v1.get_risks(environment="OTHER"))
    out["err_page_size"] = expect(CensysInvalidPageSizeException, lambda: list(v1.get_risks(page_size=5000)))
    out["err_cloud"] = expect(CensysInvalidCloudException, lambda: list(v1.get_risks(cloud="ALL")))
    other_v1 = Risksv1(api_key=OTHER_KEY, url=URL, max_retries=1)
    out["other_v1"] = list(other_v1.get_risks())

other = asm_client(OTHER_KEY)
out["other_instances"] = other.risks.get_risk_instances()
out["other_get"] = expect(CensysRiskNotFoundException, lambda: other.risks.get_risk_instance(telnet))

done()
