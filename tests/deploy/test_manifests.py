"""deploy/: the Kubernetes manifests are valid (kubernetes-validate, strict, for the built-in kinds; the operators'
resources, a PrometheusRule and a CloudNativePG Cluster, against what the bot needs of them), the StatefulSet's
settings place every shard on exactly one pod and spread the pods over nodes, a disruption budget lets one go at a
time, the deployed alert rules are prometheus/alerts.yml's, and the image definition copies paths that exist,
builds with pinned tools, checks every C kernel and runs a module that starts.

There is no container engine (nor hadolint) on the test machines: the image itself is not built here.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

from bot.config import load_settings

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
MANIFESTS = sorted(DEPLOY.glob("*.yaml"))
OPERATOR_KINDS = {("monitoring.coreos.com/v1", "PrometheusRule"), ("postgresql.cnpg.io/v1", "Cluster")}
"""Custom resources of operators (Prometheus Operator, CloudNativePG): kubernetes-validate has no schema for them."""
KUBERNETES_VERSIONS = ("1.28.0", kubernetes_validate.latest_version())
"""1.28 is the first release that labels a StatefulSet's pods with their ordinal (apps.kubernetes.io/pod-index)."""


def documents() -> list[dict[str, Any]]:
    return [doc for path in MANIFESTS for doc in yaml.safe_load_all(path.read_text()) if doc]


def resource(kind: str, name: str = "ttt-bot") -> dict[str, Any]:
    (found,) = [doc for doc in documents() if doc["kind"] == kind and doc["metadata"]["name"] == name]
    return found


def container() -> dict[str, Any]:
    (bot,) = resource("StatefulSet")["spec"]["template"]["spec"]["containers"]
    return dict(bot)


def test_there_is_a_statefulset_and_its_services() -> None:
    kinds = sorted((doc["kind"], doc["metadata"]["name"]) for doc in documents())
    assert kinds == [
        ("Cluster", "ttt-postgres"),
        ("PodDisruptionBudget", "ttt-bot"),
        ("PrometheusRule", "ttt-bot"),
        ("Service", "ttt-bot"),
        ("Service", "ttt-bot-metrics"),
        ("StatefulSet", "ttt-bot"),
    ]


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
@pytest.mark.parametrize("path", MANIFESTS, ids=lambda path: path.name)
def test_every_manifest_is_valid_kubernetes(path: Path, version: str) -> None:
    for doc in yaml.safe_load_all(path.read_text()):
        if (doc["apiVersion"], doc["kind"]) not in OPERATOR_KINDS:
            kubernetes_validate.validate(doc, version, strict=True)


def test_the_validation_refuses_a_misspelt_field() -> None:
    broken = resource("StatefulSet")
    broken["spec"]["template"]["spec"]["containers"][0]["livenessProbe"]["httpGet"]["paht"] = "/livez"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, KUBERNETES_VERSIONS[-1], strict=True)


def test_the_probes_and_the_metrics_services_reach_the_bots_port() -> None:
    bot = container()
    env = {item["name"]: item for item in bot["env"]}
    (port,) = bot["ports"]
    assert port["containerPort"] == int(env["METRICS_PORT"]["value"]) and env["METRICS_HOST"]["value"] == "0.0.0.0"
    probes = {name: bot[name]["httpGet"] for name in ("startupProbe", "livenessProbe", "readinessProbe")}
    assert {name: (get["path"], get["port"]) for name, get in probes.items()} == {
        "startupProbe": ("/livez", port["name"]),
        "livenessProbe": ("/livez", port["name"]),
        "readinessProbe": ("/readyz", port["name"]),
    }
    statefulset = resource("StatefulSet")
    headless = resource("Service")
    assert headless["spec"]["clusterIP"] == "None" and statefulset["spec"]["serviceName"] == "ttt-bot"
    for service in (doc for doc in documents() if doc["kind"] == "Service"):
        assert service["spec"]["selector"] == statefulset["spec"]["template"]["metadata"]["labels"]
        assert [p["targetPort"] for p in service["spec"]["ports"]] == [port["name"]]


def test_secrets_come_from_a_secret_and_the_pod_runs_unprivileged() -> None:
    bot = container()
    env = {item["name"]: item for item in bot["env"]}
    secrets = {name: env[name]["valueFrom"]["secretKeyRef"] for name in ("DISCORD_TOKEN", "DATABASE_URL")}
    assert all("value" not in env[name] for name in secrets)
    assert secrets["DISCORD_TOKEN"] == {"name": "ttt-bot", "key": "discord-token"}
    database = resource("Cluster", "ttt-postgres")
    assert secrets["DATABASE_URL"] == {"name": f"{database['metadata']['name']}-app", "key": "uri"}  # CloudNativePG's
    pod = resource("StatefulSet")["spec"]["template"]["spec"]
    assert pod["securityContext"]["runAsNonRoot"] and pod["securityContext"]["runAsUser"] != 0
    assert bot["securityContext"]["allowPrivilegeEscalation"] is False


def test_each_pod_of_the_statefulset_holds_its_own_shards_and_together_all() -> None:
    env = {item["name"]: item.get("value", "secret") for item in container()["env"]}
    del env["POD_ORDINAL"]  # the pod-index label; without it the host name gives the ordinal
    replicas = resource("StatefulSet")["spec"]["replicas"]
    held = []
    for ordinal in range(replicas):
        settings = load_settings(env, None, hostname=f"ttt-bot-{ordinal}")
        assert settings.shard_ids, f"pod {ordinal} holds no shard"
        held += settings.shard_ids
    assert sorted(held) == list(range(int(env["DISCORD_SHARD_COUNT"])))


def dockerfile() -> list[tuple[str, str]]:
    """``(instruction, arguments)`` of deploy/Dockerfile, continuation lines joined, comments left out."""
    text = re.sub(r"\\\n", " ", (DEPLOY / "Dockerfile").read_text())
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def test_the_image_copies_paths_that_exist_and_the_lock_file_with_hashes() -> None:
    copies = [shlex.split(args) for instruction, args in dockerfile() if instruction == "COPY"]
    sources = [source for words in copies if not words[0].startswith("--from") for source in words[:-1]]
    assert "requirements.txt" in sources and "bot" in sources and "engine" in sources
    assert [source for source in sources if not (ROOT / source).exists()] == []
    ignored = (ROOT / ".dockerignore").read_text().splitlines()
    assert [source for source in sources if f"!{source}" not in ignored and f"!{source}/" not in ignored] == []
    runs = " ".join(args for instruction, args in dockerfile() if instruction == "RUN")
    assert "--require-hashes -r requirements-build.txt -r requirements.txt" in runs


def test_the_image_runs_as_a_user_and_its_command_starts() -> None:
    steps = dockerfile()
    users = [args for instruction, args in steps if instruction == "USER"]
    assert users and users[-1].split(":")[0] not in ("0", "root")
    (command,) = [json.loads(args) for instruction, args in steps if instruction == "CMD"]
    assert command == ["python", "-m", "bot"]
    done = subprocess.run(
        [sys.executable, *command[1:], "--help"], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0 and "The tic-tac-toe Discord bot" in done.stdout, done.stderr


def test_the_pods_spread_over_nodes_and_a_drain_takes_one_at_a_time() -> None:
    pod = resource("StatefulSet")["spec"]["template"]
    labels = pod["metadata"]["labels"]
    spread = {c["topologyKey"]: c for c in pod["spec"]["topologySpreadConstraints"]}
    node = spread["kubernetes.io/hostname"]
    assert (node["maxSkew"], node["whenUnsatisfiable"], node["labelSelector"]["matchLabels"]) == (
        1, "DoNotSchedule", labels,
    )  # fmt: skip
    budget = resource("PodDisruptionBudget")["spec"]
    assert budget["maxUnavailable"] == 1 and budget["selector"]["matchLabels"] == labels


def test_the_image_is_the_release_and_the_resources_fit_a_search() -> None:
    bot = container()
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert bot["image"].rsplit(":", 1)[1] == version and not bot["image"].endswith(":latest")
    resources = bot["resources"]
    assert float(resources["requests"]["cpu"]) >= 1  # an ultimate move holds a core for its 1 s budget
    assert "cpu" not in resources.get("limits", {})  # no throttling in the middle of a search


def test_the_deployed_alert_rules_are_prometheus_alerts_yml() -> None:
    deployed = resource("PrometheusRule")
    written = yaml.safe_load((ROOT / "prometheus" / "alerts.yml").read_text())
    assert deployed["spec"]["groups"] == written["groups"]
    assert deployed["metadata"]["labels"]["app.kubernetes.io/name"] == "ttt-bot"


def test_postgresql_is_shown_replicated_with_the_database_the_bot_uses() -> None:
    cluster = resource("Cluster", "ttt-postgres")["spec"]
    assert cluster["instances"] >= 2 and cluster["affinity"]["topologyKey"] == "kubernetes.io/hostname"
    assert cluster["bootstrap"]["initdb"] == {"database": "ttt", "owner": "ttt"}
    assert cluster["storage"]["size"]


def test_the_image_builds_with_pinned_setuptools_and_checks_every_kernel() -> None:
    runs = " ".join(args for instruction, args in dockerfile() if instruction == "RUN")
    assert "--require-hashes -r requirements-build.txt -r requirements.txt" in runs
    assert "--no-build-isolation" in runs
    checked = re.search(r'python -c "import ([^"]+)"', runs)
    kernels = set(re.findall(r'Extension\(\s*"([\w.]+)"', (ROOT / "setup.py").read_text()))
    assert checked is not None and set(checked[1].split(", ")) == kernels
