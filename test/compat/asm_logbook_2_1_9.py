"""Drives a live Periscope server's ASM logbook with the real censys-python 2.1.9 AsmClient.

The Node side has indexed a few hosts and certificates and written filler events. This script
adds seeds (discovery then logs what they bring), reads the logbook through
``client.events.get_cursor`` / ``get_events`` in every way the client offers, and prints one JSON
object with what it saw; the Node test asserts on it.
"""
from censys.common.exceptions import CensysInvalidLogbookCursorException, CensysInvalidRequestException

from asm_harness import OTHER_KEY, asm_client, done, expect, out

client = asm_client()
events = client.events

# Everything before the seeds: the filler the Node side wrote.
out["before"] = list(events.get_events())
last_before = max((e["id"] for e in out["before"]), default=0)

client.seeds.add_seeds(
    [
        {"type": "DOMAIN_NAME", "value": "compat-logbook.io", "label": "logbook"},
        {"type": "CIDR", "value": "45.33.100.0/24", "label": "logbook"},
    ]
)

out["all"] = list(events.get_events())
out["all_via_cursor"] = list(events.get_events(events.get_cursor()))
out["from_id"] = list(events.get_events(events.get_cursor(last_before + 1)))
out["hosts_only"] = list(events.get_events(events.get_cursor(last_before + 1, ["HOST"])))
out["host_parts"] = list(events.get_events(events.get_cursor(last_before + 1, ["HOST_PORT", "HOST_CERT"])))
out["from_future_date"] = list(events.get_events(events.get_cursor("2999-01-01T00:00:00.000Z")))
out["from_past_date"] = len(list(events.get_events(events.get_cursor("2000-01-01T00:00:00Z"))))
out["bad_cursor"] = expect(CensysInvalidLogbookCursorException, lambda: list(events.get_events("not-a-cursor")), text=False)
out["bad_filter"] = expect(CensysInvalidRequestException, lambda: events.get_cursor(None, ["NOT_A_TYPE"]), text=False)

other = asm_client(OTHER_KEY)
out["other"] = list(other.events.get_events())

done()
