"""Writes a corpus of edge requests (one JSON object per line: id, method, path, body) for
replaying a refactor: every field of every v1 body given valid, as text, boolean, null, negative,
zero, fractional, a list, an object, too long, past the magnitude bound...; server, cloud, terminal,
IoT and consumption-profile bodies; a few GraphQL documents past the service's bounds. Both
editions (`edition=` in the query). Replay it against the service before and after a change and
compare the raw answers byte for byte (docs/testing.md, "Refactors: answers byte for byte").

    python3 scripts/edge-corpus.py OUT.jsonl
"""
import json
import sys
cases = []
def add(method, path, body):
    cases.append({"id": f"e{len(cases):05d}", "method": method, "path": path, "body": body})

usage_fields = {
  "avg_power": "f", "time_workload": "tw", "usage_location": "s", "region": "s", "instance_per_server": "i",
  "use_time_ratio": "f", "hours_life_time": "f", "other_consumption_ratio": "f", "elec_factors": "ef",
  "hours_use_time": "f", "days_use_time": "f", "years_use_time": "f",
}
bodies = {
  "cpu": {"units": "i", "core_units": "i", "die_size": "f", "die_size_per_core": "f", "manufacturer": "s", "model_range": "s", "family": "s", "name": "s", "tdp": "i", "threads": "i"},
  "ram": {"units": "i", "capacity": "i", "density": "f", "manufacturer": "s", "process": "f"},
  "ssd": {"type": "s", "units": "i", "capacity": "i", "density": "f", "manufacturer": "s", "layers": "i"},
  "hdd": {"units": "i", "capacity": "i"},
  "power_supply": {"units": "i", "unit_weight": "f"},
  "case": {"units": "i", "case_type": "s"},
  "motherboard": {"units": "i"},
  "assembly": {"units": "i"},
  "gpu": {"units": "i", "name": "s", "manufacturer": "s", "weight": "f", "heatsink_weight": "f", "pwb_surface": "f", "pwb_weight": "f", "casing_weight": "f", "gpu_surface": "f", "vram": "i", "vram_dies": "i", "vram_surface": "f", "transport_boat": "f", "transport_truck": "f", "transport_plane": "f"},
}
valids = {"i": 2, "f": 2.5, "s": "Intel", "tw": 40, "ef": {"gwp": 0.1}}
variants = ["12", "1.5", "abc", True, None, -1, 0, 1.5, [], {}, "x" * 300, 1e30, 1e31, "  7 ", "1e3"]
def field_variants(t):
    out = [valids[t]] + variants
    if t == "tw":
        out += [[{"time_percentage": 50, "load_percentage": 10}, {"time_percentage": 50, "load_percentage": 100}],
                [{"time_percentage": 50}], [{"time_percentage": "a", "load_percentage": 200}], [1, 2], 150]
    if t == "ef":
        out += [{"gwp": "x"}, {"gwp": None, "pe": 3}, {"zzz": 1}, {"adp": -1}]
    return out
qs = ["?verbose=true", "?verbose=false&criteria=gwp&criteria=pe", "?verbose=true&duration=1000"]
for ed in ["1.2.4", "2.4.1"]:
    for kind, fields in bodies.items():
        path = f"/v1/component/{kind.replace('_','-') if kind=='power_supply' and False else kind}"
        for name, t in fields.items():
            for v in field_variants(t):
                add("POST", path + qs[len(cases) % 3] + f"&edition={ed}", {name: v})
        for name, t in usage_fields.items():
            for v in field_variants(t):
                add("POST", path + qs[len(cases) % 3] + f"&edition={ed}", {"usage": {name: v}})
    # server bodies
    for kind in ["cpu", "ram", "ssd", "power_supply", "gpu"]:
        for name, t in bodies[kind].items():
            for v in field_variants(t)[:8]:
                item = {name: v}
                conf = {"cpu": item} if kind == "cpu" else {"ram": [item]} if kind == "ram" else {"disk": [dict(item, type="ssd")]} if kind == "ssd" else {"power_supply": item} if kind == "power_supply" else {"gpu": item}
                add("POST", "/v1/server/" + qs[len(cases) % 3] + f"&edition={ed}", {"model": {"type": "rack"}, "configuration": conf})
    for name, t in usage_fields.items():
        for v in field_variants(t):
            add("POST", f"/v1/server/?verbose=true&edition={ed}", {"usage": {name: v}})
            add("POST", f"/v1/cloud/instance?verbose=true&edition={ed}", {"provider": "aws", "instance_type": "c5.large", "usage": {name: v}})
    for v in ["rack", None, 3, [], {"type": "blade", "year": 2020, "name": 5}]:
        add("POST", f"/v1/server/?edition={ed}", {"model": v if isinstance(v, dict) else {"type": v}})
    for conf in [{"ram": {}}, {"disk": {}}, {"cpu": []}, {"ram": []}, {"disk": [{"type": "hdd", "capacity": 100}]}, {"disk": [{"type": "nvme"}]}, {"ram": [1]}, []]:
        add("POST", f"/v1/server/?verbose=true&edition={ed}", {"configuration": conf})
    for body in [{"provider": 3}, {"instance_type": None}, {"provider": "azure"}, {"provider": "scaleway", "instance_type": "x"}, [], "a", None]:
        add("POST", f"/v1/cloud/instance?edition={ed}", body)
    for dev in ["laptop", "smartphone", "television", "monitor", "vr_headset", "usb_stick"]:
        grp = "peripheral" if dev in ("monitor", "usb_stick") else "terminal"
        for body in [{"type": "pro"}, {"type": 3}, {"type": None}, {"usage": {"avg_power": "x"}}, {"usage": {"years_use_time": 1, "usage_location": "FRA"}}, {"usage": []}, {}]:
            add("POST", f"/v1/{grp}/{dev}?verbose=true&edition={ed}", body)
    for body in [{"functional_blocks": [{"type": "security", "hsl_level": "HSL-1"}]}, {"functional_blocks": [{"type": None, "hsl_level": None}]}, {"functional_blocks": [{}]}, {"functional_blocks": {}}, {"functional_blocks": [{"type": 3, "hsl_level": 4}], "usage": {"avg_power": -1}}]:
        add("POST", f"/v1/iot/iot_device?verbose=true&edition={ed}", body)
    for body in [{"cpu": {"name": "intel xeon gold 6134"}, "workload": [{"load_percentage": 0, "power_watt": 50}, {"load_percentage": 100, "power_watt": 150}]},
                 {"cpu": None}, {"workload": None}, {"cpu": {"tdp": "x"}}, {"workload": [{"load_percentage": "a"}]}, {"cpu": {"family": 3, "model_range": None}}, {}]:
        add("POST", f"/v1/consumption_profile/cpu?edition={ed}", body)
# GraphQL
gq = [
 ('query($i: ServerInput){ server(input:$i){ impacts(criteria:[gwp]){ criterion embedded{value} use{value} } } }', {"i": {"configuration": {"cpu": {"units": -1}}}}),
 ('query($i: ServerInput){ server(input:$i){ impacts(criteria:[gwp]){ criterion embedded{value} } } }', {"i": {"configuration": {"ram": [{"density": 0}]}}}),
 ('query($i: ServerInput){ server(input:$i){ impacts(criteria:[gwp]){ criterion embedded{value} } } }', {"i": {"usage": {"timeWorkload": 120}}}),
 ('query($i: ServerInput){ server(input:$i){ impacts(criteria:[gwp]){ criterion use{value} } } }', {"i": {"usage": {"timeWorkloadShares": [{"timePercentage": 50, "loadPercentage": 101}]}}}),
 ('query($i: ServerInput){ server(input:$i){ impacts(criteria:[gwp]){ criterion use{value} } } }', {"i": {"usage": {"hoursUseTime": -1}}}),
 ('query($i: ServerInput){ server(input:$i){ impacts(criteria:[gwp]){ criterion use{value} } } }', {"i": {"usage": {"usageLocation": "x" * 5000}}}),
 ('query($i: ServerInput){ server(input:$i){ impacts(criteria:[gwp]){ criterion use{value} } } }', {"i": {"usage": {"avgPower": 1e-40}}}),
 ('query($i: ServerInput){ server(input:$i){ impacts(criteria:[gwp]){ criterion use{value} } } }', {"i": {"usage": {"elecFactors": {"gwp": 1e40}}}}),
 ('query($i: CpuInput){ cpu(input:$i){ impacts(criteria:[gwp]){ criterion embedded{value} use{value} } } }', {"i": {"coreUnits": -2, "threads": -1, "tdp": -4}}),
 ('query($i: DiskInput){ ssd(input:$i){ impacts(criteria:[gwp]){ criterion embedded{value} } } }', {"i": {"layers": -3, "density": 0}}),
 ('query($i: GpuInput){ gpu(input:$i, edition:"2.4.1"){ impacts(criteria:[gwp]){ criterion embedded{value} } } }', {"i": {"vram": -1}}),
 ('query($i: ServerInput){ server(input:$i){ impacts(criteria:[gwp], verbose:true){ criterion embedded{value} } } }', {"i": {"model": {"type": "blade", "extra": 1}}}),
]
for q, v in gq:
    add("POST", "/graphql", {"query": q, "variables": v})
with open(sys.argv[1] if len(sys.argv) > 1 else "edge.jsonl", "w") as f:
    for c in cases: f.write(json.dumps(c) + "\n")
print(len(cases))
