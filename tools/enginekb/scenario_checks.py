"""`claims lint` on scenarios: what the schema cannot know. Rows, engines, claims, cells, model records
and hardware classes exist and fit; each answer's figures meet its verdict; its path's maturity and its
obstacle rest on claims; the tiers follow the verdicts (`tiers`)."""

from __future__ import annotations

from .maturity import CAPPING, least_mature
from .model import CONTEXT_OWNER, Catalog
from .needs import MEASURES, NO_FIGURE
from .problems import Problem
from .scenario_numbers import NUMBER, unbacked_numbers
from .scenarios import CELL_PART, FIGURE_LABELS, Answer, Scenario, cell_named, claims_under, path_claims
from .tiers import VERDICT_STRENGTH, tier_problems

ARCHITECTURAL_ROW = "constraints.architectural"


def check_scenarios(catalog: Catalog, problems: list[Problem]) -> None:
    engines_with_claims = [e for e in catalog.engines if catalog.engine_claims(e)]
    for scenario in catalog.scenarios:
        def problem(line: int, message: str) -> None:
            problems.append(Problem(scenario.path, line, scenario.id, message))

        for row in scenario.draws_on:
            if catalog.dimensions and row not in catalog.dimensions:
                problem(scenario.line, f"draws_on: unknown row {row!r}")
        if scenario.hardware not in catalog.hardware.classes:
            problem(scenario.line, f"hardware: unknown class {scenario.hardware!r} (claims/hardware.yaml)")
            continue
        named = {answer.engine for answer in scenario.answers}
        for engine in engines_with_claims:
            if engine not in named:
                problem(scenario.line, f"engines: no verdict for {engine}")
        for message in tier_problems(scenario, catalog.hardware):
            problem(scenario.line, message)
        for answer in scenario.answers:
            _check_answer(scenario, answer, catalog, lambda message, line=answer.line, a=answer:
                          problem(line, f"{a.engine}: {message}"))
        for figure in scenario.figures:
            wrong = _figure_claim_problem(catalog, figure.claim)
            if wrong:
                problem(figure.line, f"figures: {wrong}")


def _figure_claim_problem(catalog: Catalog, claim_id: str) -> str:
    """Why a claim cannot give a figure ("" when it can)."""
    claim = catalog.claim(claim_id)
    if claim is None:
        return f"unknown claim {claim_id!r}"
    if claim.label not in FIGURE_LABELS:
        return f"{claim_id} is {claim.label}; a figure is a Verified, repo-reported or measured claim"
    return ""


def _owned(record: str, engine: str) -> bool:
    return record.split("/", 1)[0] in (engine, CONTEXT_OWNER)


def _check_answer(scenario: Scenario, answer: Answer, catalog: Catalog, problem) -> None:
    if answer.engine not in catalog.engines:
        problem("unknown engine")
        return
    for record in answer.rests_on:
        exists = cell_named(catalog, record) is not None if CELL_PART in record else catalog.claim(record) is not None
        if not exists:
            problem(f"rests_on: unknown {'cell' if CELL_PART in record else 'claim'} {record!r}")
        elif not _owned(record, answer.engine):
            problem(f"rests_on: {record} belongs to {record.split('/', 1)[0]}, not to {answer.engine}")
    _check_hardware(scenario, answer, catalog, problem)
    _check_path(scenario, answer, catalog, problem)
    _check_obstacle(answer, catalog, problem)
    claims = claims_under(answer, catalog)
    if answer.verdict == "no" and not any(c.absence or c.dimension == ARCHITECTURAL_ROW for c in claims) \
            and not _fails_a_need(scenario, answer, catalog):
        problem(f"a `no` rests on a claim of absence (absence: true), an architectural constraint ({ARCHITECTURAL_ROW}) "
                "or a figure that fails a numeric need")
    if not answer.better_than_rows:
        worse = [row for row in scenario.draws_on if _worse_row(catalog, answer, row)]
        if worse:
            problem(f"verdict {answer.verdict} is better than the cell on {', '.join(worse)}: say why (better_than_rows)")
    _check_figures(scenario, answer, catalog, problem)
    for message in unbacked_numbers(answer, catalog):
        problem(message)


def _check_hardware(scenario: Scenario, answer: Answer, catalog: Catalog, problem) -> None:
    hardware = catalog.hardware
    if answer.hardware not in hardware.classes:
        problem(f"hardware: unknown class {answer.hardware!r} (claims/hardware.yaml)")
    elif not (hardware.runs_on(answer.hardware, scenario.hardware) or hardware.classes[answer.hardware].kind == "server"):
        problem(f"hardware: {answer.hardware} is neither {scenario.hardware}, a unit within it, nor a server class")


def _check_path(scenario: Scenario, answer: Answer, catalog: Catalog, problem) -> None:
    path = answer.path
    for field, record in (("api", path.api), ("backend", path.backend)):
        if record and catalog.claim(record) is None:
            problem(f"path.{field}: unknown claim {record!r}")
        elif record and not _owned(record, answer.engine):
            problem(f"path.{field}: {record} belongs to {record.split('/', 1)[0]}, not to {answer.engine}")
        elif not record and answer.verdict != "no":
            problem(f"path.{field}: name the claim that establishes the path's {field} (a `no` may leave it out)")
    record = _model_problem(catalog, answer, path.model, path.variant, "path", problem)
    port = next((p for p in record.ports if p.engine == answer.engine), None) if record else None
    if port is not None and path.variant and path.variant not in port.variants:
        problem(f"path.variant: {path.model}'s record says the {answer.engine} port runs "
                f"{', '.join(port.variants) or 'no variant'}, not {path.variant!r}")
    if not path.model and answer.verdict != "no" and not scenario.no_model:
        problem("path.model: name the model record the path runs (or give the scenario `no_model`)")
    weakest = least_mature(path_claims(answer, catalog))
    if answer.verdict == "yes" and weakest is not None and weakest.maturity[0] in CAPPING \
            and weakest.maturity[0] not in scenario.allows_maturity:
        problem(f"verdict yes on a path whose {weakest.id} is {weakest.maturity[0]}: {weakest.maturity[0]} caps "
                "`yes` at partial unless the scenario allows it (allows_maturity)")


def _check_obstacle(answer: Answer, catalog: Catalog, problem) -> None:
    if answer.obstacle == "none":
        if answer.obstacle_what or answer.obstacle_rests_on:
            problem("obstacle: kind none takes neither `what` nor `rests_on`")
        return
    if not answer.obstacle_what:
        problem("obstacle: say which (obstacle.what)")
    if not answer.obstacle_rests_on:
        problem("obstacle: rests on the claims that establish it (obstacle.rests_on)")
        return
    claims = []
    for record in answer.obstacle_rests_on:
        claim = catalog.claim(record)
        if claim is None:
            problem(f"obstacle.rests_on: unknown claim {record!r}")
        elif not _owned(record, answer.engine):
            problem(f"obstacle.rests_on: {record} belongs to {claim.engine}, not to {answer.engine}")
        else:
            claims.append(claim)
    if answer.obstacle == "architectural" and claims and not any(c.dimension == ARCHITECTURAL_ROW for c in claims):
        problem(f"obstacle: an architectural obstacle rests on a claim of {ARCHITECTURAL_ROW}")
    if answer.obstacle == "missing-implementation" and claims and not any(c.absence for c in claims):
        problem("obstacle: a missing implementation rests on a claim of absence (absence: true, its note saying how "
                "the tree was searched)")


def _check_figures(scenario: Scenario, answer: Answer, catalog: Catalog, problem) -> None:
    hardware = catalog.hardware
    for measure in answer.figures:
        if measure not in scenario.numeric:
            problem(f"figures.{measure}: the scenario has no such numeric need")
    for measure, need in scenario.numeric.items():
        spec = MEASURES[measure]
        wanted = spec.need_text(need)
        cited = answer.figures.get(measure)
        if cited is None:
            if answer.verdict != "no" or answer.path.links:  # a `no` without a path has nothing to measure
                problem(f"figures.{measure}: cite the figures bearing on {wanted}, or say `no figure`")
            continue
        if cited == NO_FIGURE:
            if answer.verdict == "yes":
                problem(f"figures.{measure}: `no figure` caps the verdict at partial")
            continue
        meets_here = False
        for figure in cited:
            if not _figure_ok(figure, answer, catalog, spec, problem):
                continue
            on = figure.on if spec.per_hardware else answer.hardware
            ok = spec.meets(figure.in_unit(spec), need)
            if not ok and hardware.at_least(on, answer.hardware) and not figure.not_binding and answer.verdict != "no":
                problem(f"figures.{measure}: {figure.source} gives {figure.value:g}{figure.unit and ' ' + figure.unit} on {on}, failing {wanted} on "
                        f"{'the same' if on == answer.hardware else 'stronger'} hardware: that caps the verdict at no "
                        "unless the figure says why it does not bind (not_binding)")
            if ok and hardware.at_least(answer.hardware, on):
                meets_here = True
        if answer.verdict == "yes" and not meets_here:
            problem(f"figures.{measure}: a `yes` needs a figure that meets {wanted} on {answer.hardware} "
                    "(or on weaker hardware)")


def _fails_a_need(scenario: Scenario, answer: Answer, catalog: Catalog) -> bool:
    """A cited figure fails a need on the answer's class or stronger hardware (and is not excused)."""
    for measure, need in scenario.numeric.items():
        spec, cited = MEASURES[measure], answer.figures.get(measure, NO_FIGURE)
        for figure in () if cited == NO_FIGURE else cited:
            value, on = figure.in_unit(spec), (figure.on if spec.per_hardware else answer.hardware)
            if value is not None and on in catalog.hardware.classes and not figure.not_binding \
                    and not spec.meets(value, need) and catalog.hardware.at_least(on, answer.hardware):
                return True
    return False


def _figure_ok(figure, answer: Answer, catalog: Catalog, spec, problem) -> bool:
    where = f"figures.{figure.measure}"
    if spec.per_hardware and not figure.on:
        problem(f"{where}: say which hardware class the figure was measured on (on)")
        return False
    if figure.in_unit(spec) is None:
        problem(f"{where}: {figure.unit!r} does not convert to {spec.unit or 'a plain ratio'}")
        return False
    if figure.on and figure.on not in catalog.hardware.classes:
        problem(f"{where}: unknown hardware class {figure.on!r}")
        return False
    if figure.model:
        record = _model_problem(catalog, answer, figure.model, figure.variant, where, problem)
        if record is None:
            return False
        sizes = [w.size.value for v in record.variants if v.name == figure.variant or not figure.variant for w in v.weights]
        if figure.value not in {float(n.replace(",", "")) for size in sizes for n in NUMBER.findall(size)}:
            problem(f"{where}: {figure.source}'s record gives no weight size of {figure.value:g}")
            return False
        return True
    wrong = _figure_claim_problem(catalog, figure.claim)
    if wrong:
        problem(f"{where}: {wrong}")
        return False
    claim = catalog.claim(figure.claim)
    if not _owned(figure.claim, answer.engine):
        problem(f"{where}: {figure.claim} belongs to {claim.engine}, not to {answer.engine}")
        return False
    stated = {float(n.replace(",", "")) for n in NUMBER.findall(claim.text)}
    stated |= {claim.measurement[0]} if claim.measurement else set()
    stated |= {float(claim.count.value)} if claim.count else set()
    if figure.value not in stated:
        problem(f"{where}: {figure.claim} states no {figure.value:g} (its text, measurement or count)")
        return False
    return True


def _model_problem(catalog: Catalog, answer: Answer, model: str, variant: str, where: str, problem):
    """The model record named, or None (said) when it or its variant does not exist."""
    if not model:
        if variant:
            problem(f"{where}.variant: a variant of which model? (name the model)")
        return None
    record = next((r for r in catalog.models if r.id == model), None)
    if record is None:
        problem(f"{where}: unknown model record {model!r} (claims/models/)")
    elif variant and variant not in {v.name for v in record.variants}:
        problem(f"{where}: {model} has no variant {variant!r} ({', '.join(v.name for v in record.variants)})")
        return None
    return record


def _worse_row(catalog: Catalog, answer: Answer, row: str) -> bool:
    cell = cell_named(catalog, f"{answer.engine}{CELL_PART}{row}")
    return cell is not None and cell.verdict in VERDICT_STRENGTH and \
        VERDICT_STRENGTH[answer.verdict] > VERDICT_STRENGTH[cell.verdict]
