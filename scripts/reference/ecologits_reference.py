"""The reference side of the generative-AI kind: EcoLogits 0.11.3 as installed by
scripts/ensure-ecologits.sh, called in the process (no network, no API key, no provider).

    python ecologits_reference.py facts     the package's data and figures as one JSON document
                                            (read by scripts/ecologits-data.ts, which writes
                                            data/ecologits-0.11.3/)
    python ecologits_reference.py impacts   one request a line on stdin (JSON: provider, model,
                                            output_tokens, request_latency or null, zone or null),
                                            one answer a line on stdout, in the same order

An answer holds, for each value EcoLogits computes, its bounds [min, max] (a single value is
both), its warnings' codes and its errors' codes. Written for this project; it reads the package's
public objects and calls `llm_impacts`, the function its tracers call for every request.
"""

import json
import logging
import math
import sys

import ecologits
from ecologits.electricity_mix_repository import electricity_mixes
from ecologits.impacts import llm
from ecologits.model_repository import ParametersMoE, models
from ecologits.tracers.utils import PROVIDER_CONFIG_MAP, llm_impacts
from ecologits.utils.range_value import RangeValue

# The figures of ecologits/impacts/llm.py the computation reads by default, by their names there.
FIGURES = [
    "MODEL_QUANTIZATION_BITS",
    "GPU_ENERGY_ALPHA",
    "GPU_ENERGY_BETA",
    "GPU_ENERGY_GAMMA",
    "LATENCY_ALPHA",
    "LATENCY_BETA",
    "LATENCY_GAMMA",
    "GPU_MEMORY",
    "GPU_EMBODIED_IMPACT_GWP",
    "GPU_EMBODIED_IMPACT_ADPE",
    "GPU_EMBODIED_IMPACT_PE",
    "SERVER_GPUS",
    "SERVER_POWER",
    "SERVER_EMBODIED_IMPACT_GWP",
    "SERVER_EMBODIED_IMPACT_ADPE",
    "SERVER_EMBODIED_IMPACT_PE",
    "HARDWARE_LIFESPAN",
    "BATCH_SIZE",
]


def bounds(value):
    """[min, max] of a number or a RangeValue."""
    if isinstance(value, RangeValue):
        return [value.min, value.max]
    return [value, value]


def model_facts(model, sources):
    parameters = model.architecture.parameters
    if isinstance(parameters, ParametersMoE):
        total, active = parameters.total, parameters.active
    else:
        total = active = parameters
    deployment = model.deployment
    return {
        "provider": model.provider.value,
        "name": model.name,
        "architecture": model.architecture.type.value,
        "total": bounds(total),
        "active": bounds(active),
        "tps": deployment.tps if deployment else None,
        "ttft": deployment.ttft if deployment else None,
        "warnings": [warning.code for warning in model.warnings],
        "sources": sources.get((model.provider.value, model.name), []),
    }


def facts():
    # The repository drops each model's sources (it reads them under the key "source"): they
    # are read from the package's models.json itself, an alias taking its model's.
    with open(llm.__file__.replace("impacts/llm.py", "data/models.json")) as file:
        raw = json.load(file)
    sources = {(m["provider"], m["name"]): m.get("sources") or [] for m in raw["models"]}
    aliases = {}
    for alias in raw.get("aliases") or []:
        sources[(alias["provider"], alias["name"])] = sources.get((alias["provider"], alias["alias"]), [])
        aliases[(alias["provider"], alias["name"])] = alias["alias"]
    listed = []
    for model in models.list_models():
        entry = model_facts(model, sources)
        entry["alias_of"] = aliases.get((entry["provider"], entry["name"]))
        listed.append(entry)
    return {
        "version": ecologits.__version__,
        "models": listed,
        "electricity_mixes": [
            {
                "zone": mix.zone,
                "adpe": mix.adpe,
                "pe": mix.pe,
                "gwp": mix.gwp,
                "wue": mix.wue,
                "warnings": [warning.code for warning in mix.warnings],
            }
            for mix in electricity_mixes.list_electricity_mixes()
        ],
        "figures": {name: getattr(llm, name) for name in FIGURES},
        "providers": {
            name: {
                "datacenter_location": config.datacenter_location,
                "pue": bounds(config.datacenter_pue),
                "wue": bounds(config.datacenter_wue),
            }
            for name, config in PROVIDER_CONFIG_MAP.items()
        },
    }


def answer(request):
    latency = request.get("request_latency")
    impacts = llm_impacts(
        provider=request["provider"],
        model_name=request["model"],
        output_token_count=request["output_tokens"],
        request_latency=math.inf if latency is None else latency,
        electricity_mix_zone=request.get("zone"),
    )
    if impacts.has_errors:
        return {"errors": [error.code for error in impacts.errors]}
    return {
        "energy": bounds(impacts.usage.energy.value),
        "gwp_use": bounds(impacts.usage.gwp.value),
        "adpe_use": bounds(impacts.usage.adpe.value),
        "pe_use": bounds(impacts.usage.pe.value),
        "wcf_use": bounds(impacts.usage.wcf.value),
        "gwp_embodied": bounds(impacts.embodied.gwp.value),
        "adpe_embodied": bounds(impacts.embodied.adpe.value),
        "pe_embodied": bounds(impacts.embodied.pe.value),
        "warnings": [warning.code for warning in impacts.warnings or []],
        "errors": [],
    }


def main():
    # The package logs each warning once; the answers carry them.
    logging.getLogger("ecologits").setLevel(logging.CRITICAL)
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "facts":
        json.dump(facts(), sys.stdout, indent=1)
        sys.stdout.write("\n")
    elif mode == "impacts":
        for line in sys.stdin:
            if line.strip():
                sys.stdout.write(json.dumps(answer(json.loads(line))) + "\n")
    else:
        sys.stderr.write(__doc__)
        sys.exit(64)


if __name__ == "__main__":
    main()
