"""Drives a live Periscope server's ASM asset API with the real censys-python 2.1.9 AsmClient.

Reads PERISCOPE_URL, PERISCOPE_ASM_KEY (a workspace with the crafted assets of
test/http/asm-assets-fixture.ts) and PERISCOPE_OTHER_ASM_KEY (a workspace without assets), plus
HOST_A, SHA_A and BUCKET, and prints one JSON object with what each step observed; the Node test
asserts on it. An exception a step does not expect propagates and fails the run.
"""
import os

from censys.common.exceptions import (
    CensysCertificateNotFoundException,
    CensysCommentNotFoundException,
    CensysDomainNotFoundException,
    CensysHostNotFoundException,
    CensysInvalidColorException,
    CensysInvalidCommentException,
    CensysInvalidCommentHTMLException,
    CensysInvalidIPv4AddressException,
    CensysInvalidPageSizeException,
    CensysPageNumberOutOfRangeException,
    CensysSubdomainNotFoundException,
    CensysTagColorTooLongException,
    CensysTagHasTrailingOrLeadingWhitespaceException,
    CensysTagIsEmptyStringException,
    CensysTagLabelsDifferOnlyInCasingException,
    CensysTagLabelTooLongException,
)

from asm_harness import OTHER_KEY, asm_client, done, expect, out

HOST_A = os.environ["HOST_A"]
SHA_A = os.environ["SHA_A"]

client = asm_client()
other = asm_client(OTHER_KEY)

# Hosts: paging over several pages (the client stops at totalPages), filters, trail, get.
out["hosts"] = [a["assetId"] for a in client.hosts.get_assets(page_size=4)]
out["hosts_default_page"] = [a["assetId"] for a in client.hosts.get_assets()]
out["hosts_from_page_3"] = [a["assetId"] for a in client.hosts.get_assets(page_number=3, page_size=10)]
out["hosts_trail"] = next(client.hosts.get_assets(page_size=2, discovery_trail=True))["discoveryTrail"]
out["host"] = client.hosts.get_asset_by_id(HOST_A)

# Certificates and domains.
out["certificates"] = [a["assetId"] for a in client.certificates.get_assets(page_size=1)]
out["certificate"] = client.certificates.get_asset_by_id(SHA_A)
out["domains"] = [a["data"]["domain"] for a in client.domains.get_assets(page_size=1)]
out["domain"] = client.domains.get_asset_by_id("example.com")
out["domain_subdomains"] = [s["subdomain"] for s in client.domains.get_subdomains("example.com", page_size=1)]

# Subdomains through the 2.1.9 per-domain class.
subs = client.get_subdomains("example.com")
out["subdomains"] = [s["subdomain"] for s in subs.get_assets(page_size=1)]
out["subdomain"] = subs.get_asset_by_id("www.example.com")
sub_comment = subs.add_comment("www.example.com", "subdomain note")
out["subdomain_comments"] = list(subs.get_comments("www.example.com"))
out["subdomain_tag"] = subs.add_tag("www.example.com", "web", "#00ff00")
out["subdomain_tagged"] = subs.get_asset_by_id("www.example.com")["tags"]
out["subdomain_untag"] = subs.delete_tag("www.example.com", "web")
out["subdomain_comment_deleted"] = subs.delete_comment("www.example.com", sub_comment["commentId"])

# Comments on a host: add, list over pages, get, delete.
added = [client.hosts.add_comment(HOST_A, f"note {i}") for i in range(1, 6)]
out["comments_added"] = added
out["comments"] = list(client.hosts.get_comments(HOST_A, page_size=2))
out["comment"] = client.hosts.get_comment_by_id(HOST_A, added[1]["commentId"])
out["comment_deleted"] = client.hosts.delete_comment(HOST_A, added[0]["commentId"])
out["comments_after_delete"] = [c["commentId"] for c in client.hosts.get_comments(HOST_A)]
out["host_comment_count"] = client.hosts.get_asset_by_id(HOST_A)["comments"]["totalComments"]

# Tags: add with and without colour, a name with a space, filter by tag, delete.
out["tag_added"] = client.hosts.add_tag(HOST_A, "compat", "#4287f5")
out["tag_plain"] = client.hosts.add_tag(HOST_A, "my tag")
out["host_tags"] = client.hosts.get_asset_by_id(HOST_A)["tags"]
out["tagged_hosts"] = [a["assetId"] for a in client.hosts.get_assets(tag=["compat"], tag_operator="is")]
out["untagged_hosts_count"] = len(list(client.hosts.get_assets(tag=["compat"], tag_operator="is not", page_size=7)))
out["tag_deleted"] = client.hosts.delete_tag(HOST_A, "my tag")
out["host_tags_after"] = client.hosts.get_asset_by_id(HOST_A)["tags"]

# Errors become the client's exception for their errorCode.
out["err_host"] = expect(CensysHostNotFoundException, lambda: client.hosts.get_asset_by_id("192.0.2.99"))
out["err_ipv4"] = expect(CensysInvalidIPv4AddressException, lambda: client.hosts.get_asset_by_id("not-an-ip"))
out["err_cert"] = expect(CensysCertificateNotFoundException, lambda: client.certificates.get_asset_by_id("c" * 64))
out["err_domain"] = expect(CensysDomainNotFoundException, lambda: client.domains.get_asset_by_id("nope.example"))
out["err_domain_subdomains"] = expect(CensysDomainNotFoundException, lambda: list(client.domains.get_subdomains("nope.example")))
out["err_subdomain"] = expect(CensysSubdomainNotFoundException, lambda: subs.get_asset_by_id("zzz.example.com"))
out["err_comment"] = expect(CensysCommentNotFoundException, lambda: client.hosts.get_comment_by_id(HOST_A, 99999999))
out["err_comment_empty"] = expect(CensysInvalidCommentException, lambda: client.hosts.add_comment(HOST_A, "   "))
out["err_comment_html"] = expect(CensysInvalidCommentHTMLException, lambda: client.hosts.add_comment(HOST_A, "<script>x</script>"))
out["err_tag_space"] = expect(CensysTagHasTrailingOrLeadingWhitespaceException, lambda: client.hosts.add_tag(HOST_A, " padded"))
out["err_tag_empty"] = expect(CensysTagIsEmptyStringException, lambda: client.hosts.add_tag(HOST_A, ""))
out["err_tag_casing"] = expect(CensysTagLabelsDifferOnlyInCasingException, lambda: client.hosts.add_tag(HOST_A, "COMPAT"))
out["err_tag_long"] = expect(CensysTagLabelTooLongException, lambda: client.hosts.add_tag(HOST_A, "x" * 200))
out["err_color_long"] = expect(CensysTagColorTooLongException, lambda: client.hosts._post(f"/v1/assets/hosts/{HOST_A}/tags", data={"name": "c", "color": "#4287f5ff"}))
# The client refuses a bad colour itself; nothing is sent.
out["err_color_local"] = expect(CensysInvalidColorException, lambda: client.hosts.add_tag(HOST_A, "c", "red"))
out["err_page_size"] = expect(CensysInvalidPageSizeException, lambda: list(client.hosts.get_assets(page_size=5000)))
out["err_page_number"] = expect(CensysPageNumberOutOfRangeException, lambda: list(client.hosts.get_assets(page_number=99)))

# Another workspace: empty lists end at once, and nothing is found.
out["other_hosts"] = list(other.hosts.get_assets())
out["other_subdomains"] = expect(CensysDomainNotFoundException, lambda: list(other.get_subdomains("example.com").get_assets()))
out["other_host"] = expect(CensysHostNotFoundException, lambda: other.hosts.get_asset_by_id(HOST_A))
out["other_comments"] = expect(CensysHostNotFoundException, lambda: list(other.hosts.get_comments(HOST_A)))

done()
