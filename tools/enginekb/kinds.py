"""The records other than claims, read by a load of every kind (`claims lint`, the site build): which
loader each file goes to, by where it lives (layout.py), and the checks across the catalog once all
are read. A load of the claims alone (citecheck, `claims grep`, `show`) never imports this module or
the modules of these kinds.
"""

from __future__ import annotations

from pathlib import Path

from .artifacts import check_inventory, load_inventory
from .cells import check_cells, check_shared_verdicts, load_cells
from .disagreements import check_disagreements, load_disagreements
from .frame import read_records
from .hardware import load_hardware
from .layout import (ARTIFACTS_FILE, ARTIFACTS_SCHEMA_FILE, CELL_SCHEMA_FILE, CELLS_FILE, COVERAGE_DIR,
                     COVERAGE_SCHEMA_FILE, DIMENSIONS_FILE, DISAGREEMENTS_FILE, DISAGREEMENTS_SCHEMA_FILE,
                     ENGINES_FILE, HARDWARE_FILE, HARDWARE_SCHEMA_FILE, LEDGER_FILE, LEDGER_SCHEMA_FILE,
                     MODEL_SCHEMA_FILE, MODELS_DIR, SCENARIO_SCHEMA_FILE, SCENARIOS_DIR)
from .ledger import check_ledgers, load_ledger
from .model import Catalog
from .modelrecords import check_model_records, load_model_record
from .problems import Problem
from .scenario_checks import check_scenarios
from .scenarios import load_scenario
from .store import RecordStore
from .study_coverage import check_coverage, load_coverage


def read_other(path: Path, claims_dir: Path, catalog: Catalog, problems: list[Problem], store: RecordStore) -> None:
    """Read the records file `path` (not a claims file) into `catalog`, or say why it cannot be read."""
    if path.parent == claims_dir:
        if path.name == ARTIFACTS_FILE:
            located = read_records(path, problems, store)
            if located is not None:
                catalog.inventory = load_inventory(located, claims_dir / ARTIFACTS_SCHEMA_FILE, problems)
        elif path.name == DISAGREEMENTS_FILE:
            located = read_records(path, problems, store)
            if located is not None:
                catalog.disagreements = load_disagreements(located, claims_dir / DISAGREEMENTS_SCHEMA_FILE, problems)
        elif path.name == HARDWARE_FILE:
            located = read_records(path, problems, store)
            if located is not None:
                catalog.hardware = load_hardware(located, claims_dir / HARDWARE_SCHEMA_FILE, problems)
        elif path.name not in (ENGINES_FILE, DIMENSIONS_FILE):
            problems.append(Problem(path, 0, "-", f"claims live in claims/<engine-id>/; only {ENGINES_FILE}, "
                                                  f"{DIMENSIONS_FILE}, {HARDWARE_FILE}, {ARTIFACTS_FILE} and "
                                                  f"{DISAGREEMENTS_FILE} stand directly in claims/"))
    elif path.parent == claims_dir / COVERAGE_DIR:
        located = read_records(path, problems, store)
        coverage = located and load_coverage(located, claims_dir / COVERAGE_SCHEMA_FILE, problems)
        if coverage:
            catalog.study_coverage.append(coverage)
    elif path.parent == claims_dir / SCENARIOS_DIR:
        located = read_records(path, problems, store)
        scenario = located and load_scenario(located, claims_dir / SCENARIO_SCHEMA_FILE, problems)
        if scenario:
            catalog.scenarios.append(scenario)
    elif path.parent == claims_dir / MODELS_DIR:
        located = read_records(path, problems, store)
        record = located and load_model_record(located, claims_dir / MODEL_SCHEMA_FILE, problems)
        if record:
            catalog.models.append(record)
    elif path.name == CELLS_FILE and path.parent.parent == claims_dir:
        located = read_records(path, problems, store)
        if located is not None:
            catalog.cells.extend(load_cells(located, path.parent.name, claims_dir / CELL_SCHEMA_FILE, problems))
    elif path.name == LEDGER_FILE and path.parent.parent == claims_dir:
        located = read_records(path, problems, store)
        ledger = located and load_ledger(located, path.parent.name, claims_dir / LEDGER_SCHEMA_FILE, problems)
        if ledger:
            catalog.ledgers[ledger.engine] = ledger


def check_across(catalog: Catalog, claims_dir: Path, problems: list[Problem], rows_known: bool) -> None:
    """What no single record shows: cells against their claims, scenarios, second readings, the study's
    coverage and disagreements, model records, the artifacts' inventory."""
    check_cells(catalog, problems, rows_known)
    if rows_known:
        check_shared_verdicts(catalog, claims_dir / DIMENSIONS_FILE, problems)
    check_scenarios(catalog, problems)
    check_ledgers(catalog, problems)
    check_coverage(catalog, problems)
    check_disagreements(catalog, claims_dir / DISAGREEMENTS_FILE, problems)
    check_model_records(catalog, problems)
    if catalog.inventory is not None:
        check_inventory(catalog.inventory, catalog, claims_dir / ARTIFACTS_FILE, problems)
