"""Drives a live Periscope server's ASM seeds API with the real censys-python 2.1.9 AsmClient.

Reads PERISCOPE_URL, PERISCOPE_ASM_KEY (a workspace's key) and PERISCOPE_OTHER_ASM_KEY (another
workspace's key) from the environment and prints one JSON object with what each step observed;
the Node test asserts on it. An exception a step does not expect propagates and fails the run.
"""
import os

from censys.asm import Seeds
from censys.common.exceptions import (
    CensysException,
    CensysInvalidAPIKeyException,
    CensysInvalidRequestException,
    CensysInvalidSeedDataException,
    CensysInvalidSeedTypeException,
    CensysSeedNotFoundException,
    CensysTooManyInputNodesException,
)

from asm_harness import OTHER_KEY, URL, asm_client, done, expect, out

client = asm_client()
seeds = client.seeds

out["initial"] = seeds.get_seeds()

out["added"] = seeds.add_seeds(
    [
        {"type": "IP_ADDRESS", "value": "1.2.3.4", "label": "compat"},
        {"type": "DOMAIN_NAME", "value": "censys.io", "label": "compat"},
        {"type": "CIDR", "value": "8.8.8.0/24", "label": "compat"},
        {"type": "ASN", "value": 13335, "label": "asn"},
        # Reserved: skipped without force.
        {"type": "IP_ADDRESS", "value": "10.0.0.1", "label": "compat"},
        # What the 2.1.9 CLI forwards from an exported list: extra keys.
        {"type": "IP_ADDRESS", "value": "9.9.9.9", "label": "", "id": 5, "source": "UI"},
    ]
)
out["added_again"] = seeds.add_seeds([{"type": "IP_ADDRESS", "value": "1.2.3.4", "label": "compat"}])
out["forced"] = seeds.add_seeds([{"type": "IP_ADDRESS", "value": "10.0.0.1", "label": "private"}], force=True)

out["all"] = seeds.get_seeds()
out["by_type"] = seeds.get_seeds(seed_type="ASN")
out["by_label"] = seeds.get_seeds(label="compat")
out["by_type_and_label"] = seeds.get_seeds(seed_type="IP_ADDRESS", label="compat")

first_id = out["added"]["addedSeeds"][0]["id"]
out["one"] = seeds.get_seed_by_id(first_id)

out["replaced"] = seeds.replace_seeds_by_label(
    "compat",
    [{"type": "IP_ADDRESS", "value": "1.2.3.4"}, {"type": "DOMAIN_NAME", "value": "censys.com"}],
    force=True,
)
out["after_replace"] = seeds.get_seeds(label="compat")

out["deleted_by_label"] = seeds.delete_seeds_by_label("compat")
out["after_delete_label"] = seeds.get_seeds(label="compat")

asn_id = out["by_type"][0]["id"]
out["deleted_by_id"] = seeds.delete_seed_by_id(asn_id)
out["after_delete_id"] = seeds.get_seeds(seed_type="ASN")

# Errors: each maps to its exception class through the body's errorCode.
out["err_not_found"] = expect(CensysSeedNotFoundException, lambda: seeds.get_seed_by_id(987654321))
out["err_delete_not_found"] = expect(CensysSeedNotFoundException, lambda: seeds.delete_seed_by_id(asn_id))
out["err_seed_data"] = expect(
    CensysInvalidSeedDataException, lambda: seeds.add_seeds([{"type": "IP_ADDRESS", "value": "300.1.1.1"}])
)
out["err_seed_type"] = expect(
    CensysInvalidSeedTypeException, lambda: seeds.add_seeds([{"type": "HOSTNAME", "value": "censys.io"}])
)
out["err_too_many"] = expect(
    CensysTooManyInputNodesException, lambda: seeds.add_seeds([{"type": "CIDR", "value": "4.0.0.0/6"}])
)
out["err_invalid_request"] = expect(CensysInvalidRequestException, lambda: seeds._post(seeds.base_path, data={"nope": 1}))
out["err_bad_key"] = expect(
    CensysInvalidAPIKeyException, lambda: Seeds("not-a-real-key", url=URL, max_retries=1).get_seeds()
)


def no_key():
    os.environ.pop("CENSYS_ASM_API_KEY", None)
    Seeds(url=URL)


out["err_no_key"] = expect(CensysException, no_key)

# Another workspace sees none of this one's seeds, and cannot reach them by id.
other = Seeds(OTHER_KEY, url=URL, max_retries=1)
out["other_seeds"] = other.get_seeds()
kept_id = out["forced"]["addedSeeds"][0]["id"]
out["kept"] = seeds.get_seed_by_id(kept_id)
out["other_get"] = expect(CensysSeedNotFoundException, lambda: other.get_seed_by_id(kept_id))

out["final"] = seeds.get_seeds()

done()
