"""A scenario's second readings on its page: who read it, when, whether the answer held or changed,
what the reader checked and changed, and whether the reading is of the scenario as it stands now.

A reading records the hash of the scenario it read (`enginekb.scenarios.content_hash`, everything but
the readings); an edit since makes the hash differ, and the page says so instead of letting an old
reading vouch for new text."""

from __future__ import annotations

from enginekb.scenarios import Scenario

STATES = {"current": "Read as it stands", "stale": "Reading out of date", "unread": "No second reading yet"}


def readings_state(scenario: Scenario) -> str:
    """`current` when a reading read this version, `stale` when readings exist but none did, else `unread`."""
    if scenario.read_current:
        return "current"
    return "stale" if scenario.readings else "unread"


def readings_context(scenario: Scenario) -> dict:
    """What the template shows: the scenario's state and each reading newest first, each marked
    current or out of date against the scenario's hash now. Values are plain strings: the template
    escapes them."""
    readings = [{"by": reading.by, "date": reading.date, "result": reading.result, "read": reading.read,
                 "checked": list(reading.checked), "changed": list(reading.changed),
                 "current": reading.read == scenario.content_hash}
                for reading in sorted(scenario.readings, key=lambda r: r.date, reverse=True)]
    state = readings_state(scenario)
    return {"state": state, "state_title": STATES[state], "hash": scenario.content_hash, "readings": readings}
