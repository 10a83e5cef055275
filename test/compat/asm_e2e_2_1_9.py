"""A new user's ASM session against a live Periscope server, with the real censys-python 2.1.9 AsmClient.

Usage: asm_e2e_2_1_9.py seed|read. Reads PERISCOPE_URL and PERISCOPE_ASM_KEY (and, for `read`,
PERISCOPE_OTHER_ASM_KEY when set: another workspace's key) and prints one JSON object with what
the client saw; test/compat/asm-e2e.test.ts asserts on it.

- seed: adds the DOMAIN_NAME seed (the CIDR seed comes from the `censys asm add-seeds` command)
  and lists the workspace's seeds.
- read: hosts, domains, subdomains, certificates (each with its discovery trail), risks (v2
  instances and v1 rows), the whole logbook paged to its end, and inventory searches.
"""
import json
import sys

from censys.asm.risks import Risksv1

from asm_harness import KEY, OTHER_KEY, URL, asm_client, done, out

DOMAIN = "acme-e2e.io"

client = asm_client()


def trail(asset):
    return [f"{s['type']} {s['assetId']}" for s in asset.get("discoveryTrail", [])]


def seed():
    res = client.seeds.add_seeds([{"type": "DOMAIN_NAME", "value": DOMAIN, "label": "acme"}])
    out["added"] = [f"{s['type']} {s['value']} {s['label']}" for s in res["addedSeeds"]]
    out["skipped"] = res["skippedReservedSeeds"]
    out["seeds"] = sorted(f"{s['type']} {s['value']} {s['label']}" for s in client.seeds.get_seeds())


def read():
    # Small pages, so every list is walked over several of them the way the client loops.
    hosts = list(client.hosts.get_assets(page_size=2, discovery_trail=True))
    out["hosts"] = [h["assetId"] for h in hosts]
    out["host_sources"] = sorted({h["source"] for h in hosts})
    out["host_trails"] = {h["assetId"]: trail(h) for h in hosts}
    out["host_risks"] = {h["assetId"]: sorted({r["name"] for r in h["risks"]}) for h in hosts}
    redis = client.hosts.get_asset_by_id("45.33.40.3")
    out["redis_ports"] = sorted((p["port"], p["protocol"]) for p in redis["data"]["protocols"])

    out["domains"] = [d["assetId"] for d in client.domains.get_assets()]
    out["domain_subdomains"] = [s["subdomain"] for s in client.domains.get_subdomains(DOMAIN, page_size=2)]
    subdomains = list(client.get_subdomains(DOMAIN).get_assets(page_size=2, discovery_trail=True))
    out["subdomains"] = {s["subdomain"]: sorted(h["ipAddress"] for h in s["resolvedHosts"]) for s in subdomains}
    out["subdomain_trails"] = {s["subdomain"]: trail(s) for s in subdomains}

    certs = list(client.certificates.get_assets(page_size=1))
    out["certificates"] = {
        c["assetId"]: {
            "names": c["data"]["namesListedOnCert"],
            "selfSigned": c["data"]["isSelfSigned"],
            "valid": c["data"]["isValid"],
            "ownership": c["data"]["ownershipStatus"],
            "presentedBy": sorted(h["assetId"] for h in c["data"]["hostsPresentingCert"]),
            "risks": sorted(r["type"] for r in c["risks"]),
        }
        for c in certs
    }
    out["certificate_trails"] = {c: trail(client.certificates.get_asset_by_id(c)) for c in out["certificates"]}

    instances = client.risks.get_risk_instances()["risks"]
    out["risk_instances"] = sorted(
        {f"{r['assetID']} {r['typeID']} {r['status']}" for r in instances}
    )
    out["risk_display_names"] = sorted(r["displayName"] for r in instances)
    out["risks_v1"] = {r["type"]: r["affectedAssetsCount"] for r in Risksv1(KEY, url=URL, max_retries=1).get_risks(page_size=3)}

    # The logbook from its first event, paged until endOfEvents (get_events loops on nextCursor).
    events = list(client.events.get_events(client.events.get_cursor()))
    out["event_ids"] = [e["id"] for e in events]
    out["events"] = [f"{e['type']} {e['operation']} {json.dumps(e['entity'], sort_keys=True)}" for e in events]
    out["risk_events"] = [f"{e['type']} {e['entity']['ipAddress'] if 'ipAddress' in e['entity'] else e['entity']['sha256']} {e['data']['riskType']}" for e in events if e["type"].endswith("_RISK")]

    workspace = client.seeds._get("/integrations/v1/account")["workspaceId"]
    search = client.inventory.search([workspace], query='risks: "service.database.redis_exposed"')
    out["inventory_redis"] = [h["asset_id"] for h in search["hits"]]
    search = client.inventory.search([workspace], query="type: CERT and cert.parsed.signature.self_signed: true")
    out["inventory_self_signed"] = [h["asset_id"] for h in search["hits"]]
    search = client.inventory.search([workspace], query="host.services.service_name: MYSQL", fields=["host.ip"])
    out["inventory_mysql"] = [h["host"]["ip"] for h in search["hits"]]

    if OTHER_KEY:
        other = asm_client(OTHER_KEY)
        out["other"] = {
            "hosts": [h["assetId"] for h in other.hosts.get_assets()],
            "certificates": [c["assetId"] for c in other.certificates.get_assets()],
            "risks": other.risks.get_risk_instances()["risks"],
            "events": list(other.events.get_events()),
        }


{"seed": seed, "read": read}[sys.argv[1]]()
done()
