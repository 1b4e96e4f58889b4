"""Where each kind of record lives under claims/: the one home of those names. A command that reads
some kinds (citecheck, `claims grep`) tells them apart by these names without importing the others.
"""

CLAIMS_DIR = "claims"
ENGINES_FILE = "engines.yaml"
DIMENSIONS_FILE = "dimensions.yaml"
SCHEMA_FILE = "claim.schema.json"
HARDWARE_FILE = "hardware.yaml"
HARDWARE_SCHEMA_FILE = "hardware.schema.json"
ARTIFACTS_FILE = "study-artifacts.yaml"
ARTIFACTS_SCHEMA_FILE = "study-artifacts.schema.json"
DISAGREEMENTS_FILE = "study-disagreements.yaml"
DISAGREEMENTS_SCHEMA_FILE = "study-disagreements.schema.json"
CELLS_FILE = "cells.yaml"  # in an engine's folder
CELL_SCHEMA_FILE = "cell.schema.json"
LEDGER_FILE = "second-reads.yaml"  # in an engine's folder
LEDGER_SCHEMA_FILE = "second-reads.schema.json"
SCENARIOS_DIR = "scenarios"
SCENARIO_SCHEMA_FILE = "scenario.schema.json"
MODELS_DIR = "models"
MODEL_SCHEMA_FILE = "model-record.schema.json"
COVERAGE_DIR = "study-coverage"
COVERAGE_SCHEMA_FILE = "study-coverage.schema.json"
