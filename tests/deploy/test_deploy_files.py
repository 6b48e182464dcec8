"""The deployment files under docs/deploy/ say what docs/deploy.md says they say.

No cluster, no Docker daemon and no helm binary are needed (nor the network): the files are
parsed and their structure asserted, the Helm values' key names are checked against the field
names of the dagster/dagster chart's values schema (chart 1.13.x, helm/dagster/schema in the
dagster-io/dagster repository), and the instance config that the chart makes of our
`concurrency` and run-coordinator values is validated by the installed Dagster itself.
"""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path

import pytest
import yaml

from pipelines.partition_tags import DATES, WAREHOUSE, WHOLE
from tests.conftest import ROOT

DEPLOY = ROOT / "docs" / "deploy"
DOCKERFILE = DEPLOY / "Dockerfile"
DOCKERIGNORE = DEPLOY / "Dockerfile.dockerignore"
VALUES = DEPLOY / "helm-values.yaml"
PVC = DEPLOY / "traveller-data-pvc.yaml"
GUIDE = ROOT / "docs" / "deploy.md"

# Field names of the chart's values schema (pydantic models in helm/dagster/schema/schema/
# charts/...): the keys this project's values may use. A typo or a key from another chart
# version would be ignored by helm (or fail its schema check); here it fails the test.
CHART_TOP_LEVEL = {
    "dagsterWebserver", "dagster-user-deployments", "postgresql",
    "generatePostgresqlPasswordSecret", "generateCeleryConfigSecret", "rabbitmq", "redis",
    "flower", "ingress", "imagePullSecrets", "computeLogManager", "scheduler", "runLauncher",
    "pythonLogs", "dagsterDaemon", "busybox", "migrate", "telemetry", "serviceAccount",
    "global", "retention", "concurrency", "additionalInstanceConfig",
}  # fmt: skip
CHART_GLOBAL = {
    "postgresqlSecretName", "dagsterHome", "serviceAccountName", "celeryConfigSecretName",
    "dagsterInstanceConfigMap",
}  # fmt: skip
CHART_POSTGRESQL = {
    "postgresqlScheme", "image", "enabled", "postgresqlHost", "postgresqlUsername",
    "postgresqlPassword", "postgresqlDatabase", "postgresqlParams", "service",
}  # fmt: skip
CHART_USER_DEPLOYMENTS = {"enabled", "enableSubchart", "imagePullSecrets", "deployments"}
CHART_USER_DEPLOYMENT = {
    "name", "image", "dagsterApiGrpcArgs", "codeServerArgs", "includeConfigInLaunchedRuns",
    "deploymentNamespace", "port", "env", "envConfigMaps", "envSecrets", "annotations",
    "nodeSelector", "affinity", "tolerations", "podSecurityContext", "securityContext",
    "resources", "livenessProbe", "readinessProbe", "startupProbe", "labels", "volumeMounts",
    "volumes", "schedulerName", "initContainers", "sidecarContainers", "deploymentStrategy",
}  # fmt: skip
CHART_K8S_RUN_LAUNCHER = {
    "image", "imagePullPolicy", "jobNamespace", "loadInclusterConfig", "kubeconfigFile",
    "envConfigMaps", "envSecrets", "envVars", "volumeMounts", "volumes", "labels",
    "failPodOnRunFailure", "resources", "schedulerName", "securityContext", "runK8sConfig",
}  # fmt: skip
CHART_RUN_K8S_CONFIG = {
    "containerConfig", "podSpecConfig", "podTemplateSpecMetadata", "jobSpecConfig",
    "jobMetadata",
}  # fmt: skip
CHART_DAEMON = {
    "enabled", "image", "runCoordinator", "heartbeatTolerance", "env", "envConfigMaps",
    "envSecrets", "deploymentLabels", "labels", "nodeSelector", "affinity", "tolerations",
    "podSecurityContext", "securityContext", "resources", "checkDbReadyInitContainer",
    "livenessProbe", "readinessProbe", "startupProbe", "annotations", "runMonitoring",
    "runRetries", "sensors", "schedules", "backfills", "schedulerName", "logFormat",
    "volumeMounts", "volumes", "initContainerResources", "extraContainers",
    "extraPrependedInitContainers",
}  # fmt: skip
CHART_QUEUED_RUN_COORDINATOR = {
    "maxConcurrentRuns", "tagConcurrencyLimits", "dequeueIntervalSeconds", "dequeueNumWorkers",
    "dequeueUseThreads", "blockOpConcurrencyLimitedRuns",
}  # fmt: skip
# what templates/configmap-instance.yaml reads of dagsterDaemon.runMonitoring / runRetries
CHART_RUN_MONITORING = {
    "enabled", "startTimeoutSeconds", "cancelTimeoutSeconds", "maxResumeRunAttempts",
    "pollIntervalSeconds", "freeSlotsAfterRunEndSeconds",
}  # fmt: skip
CHART_RUN_RETRIES = {"enabled", "maxRetries", "retryOnAssetOrOpFailure"}
CHART_CONCURRENCY = {"enabled", "pools", "runs"}
CHART_CONCURRENCY_POOLS = {"defaultLimit", "granularity", "opGranularityRunBuffer"}
CHART_CONCURRENCY_RUNS = {"maxConcurrentRuns", "tagConcurrencyLimits"}
CHART_TAG_LIMIT = {"key", "value", "limit"}
CHART_DAGSTER_HOME = "/opt/dagster/dagster_home"  # the chart's global.dagsterHome default


@pytest.fixture(scope="module")
def values() -> dict:
    return yaml.safe_load(VALUES.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def deployment(values: dict) -> dict:
    (only,) = values["dagster-user-deployments"]["deployments"]
    return only


@pytest.fixture(scope="module")
def dockerfile() -> str:
    # continuation lines joined, comments dropped: one instruction per line
    text = DOCKERFILE.read_text(encoding="utf-8")
    lines = [ln for ln in text.splitlines() if not ln.lstrip().startswith("#")]
    return re.sub(r"\\\n", " ", "\n".join(lines))


def _instructions(dockerfile: str, name: str) -> list[str]:
    return [
        ln.split(None, 1)[1] if " " in ln.strip() else ""
        for ln in dockerfile.splitlines()
        if ln.strip().upper().startswith(name + " ") or ln.strip().upper() == name
    ]


def _runtime_stage(dockerfile: str) -> str:
    return dockerfile.split(" AS runtime", 1)[1]


def _env(stage: str) -> dict[str, str]:
    env: dict[str, str] = {}
    for args in _instructions(stage, "ENV"):
        for pair in shlex.split(args):
            key, _, value = pair.partition("=")
            env[key] = value
    return env


# ---- Dockerfile ------------------------------------------------------------------------


def test_dockerfile_installs_from_the_lock_without_dev(dockerfile: str):
    runs = _instructions(dockerfile, "RUN")
    syncs = [r for r in runs if "uv sync" in r]
    assert syncs and all("--frozen" in r and "--no-dev" in r for r in syncs)
    # nothing Python is installed past the lock, but uv itself
    assert [r for r in runs if "pip install" in r] == [
        'pip install --no-cache-dir "uv==${UV_VERSION}"'
    ]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    uv_version = re.search(r"^UV_VERSION := (\S+)", makefile, re.M).group(1)
    assert f"ARG UV_VERSION={uv_version}" in dockerfile


def test_dockerfile_base_is_the_projects_python(dockerfile: str):
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["requires-python"] == ">=3.11,<3.12"
    assert "ARG PYTHON_IMAGE=python:3.11-slim" in dockerfile
    assert [f.split()[0] for f in _instructions(dockerfile, "FROM")] == ["${PYTHON_IMAGE}"] * 2


def test_dockerfile_runs_as_a_non_root_user(dockerfile: str):
    users = _instructions(dockerfile, "USER")
    assert users, "no USER instruction: the container would run as root"
    user = users[-1].split(":")[0]
    assert user not in {"root", "0"}
    assert user == "10001"  # the uid the Helm values' securityContexts name


def test_dockerfile_has_mdbtools_for_bws_files(dockerfile: str):
    runtime = _runtime_stage(dockerfile)
    assert any("apt-get install" in r and "mdbtools" in r for r in _instructions(runtime, "RUN"))


def test_dockerfile_starts_the_code_server_and_leaves_the_command_to_the_chart(dockerfile: str):
    (cmd,) = _instructions(dockerfile, "CMD")
    argv = yaml.safe_load(cmd)  # the exec form is a JSON array
    assert argv == [
        "dagster", "code-server", "start", "-h", "0.0.0.0", "-p", "4000",
        "-m", "pipelines.definitions",
    ]  # fmt: skip
    # the chart sets args (code server, run pods): an ENTRYPOINT would be prefixed to them
    assert not _instructions(dockerfile, "ENTRYPOINT")
    assert _instructions(dockerfile, "EXPOSE") == ["4000"]


def test_dockerfile_environment(dockerfile: str):
    env = _env(_runtime_stage(dockerfile))
    assert env["DAGSTER_HOME"] == CHART_DAGSTER_HOME
    assert env["TRAVELLER_INBOX"] == "/data/inbox"
    assert env["TRAVELLER_PUBLISH"] == "/data/publish"
    assert "TRAVELLER_WAREHOUSE" in env
    assert env["PATH"].startswith("/app/.venv/bin:")


def test_dockerfile_copies_what_exists_and_the_ignore_file_keeps_it(dockerfile: str):
    copied = []
    for args in _instructions(dockerfile, "COPY"):
        if "--from=" in args:
            continue
        *sources, _dest = args.split()
        copied += sources
    assert set(copied) >= {"pyproject.toml", "uv.lock", "README.md", "pipelines", "assets", "sql"}
    for src in copied:
        assert (ROOT / src).exists(), src
    ignored = {
        ln.strip()
        for ln in DOCKERIGNORE.read_text(encoding="utf-8").splitlines()
        if ln.strip() and not ln.startswith("#")
    }
    assert not ignored & set(copied)
    assert {".git", ".venv", ".tools", "data", ".dagster_home", "tests"} <= ignored


# ---- Helm values -----------------------------------------------------------------------


def test_values_use_only_keys_of_the_chart(values: dict, deployment: dict):
    def within(section: dict, allowed: set[str], where: str):
        assert set(section) <= allowed, f"{where}: {set(section) - allowed}"

    within(values, CHART_TOP_LEVEL, "top level")
    within(values["global"], CHART_GLOBAL, "global")
    within(values["postgresql"], CHART_POSTGRESQL, "postgresql")
    within(values["dagster-user-deployments"], CHART_USER_DEPLOYMENTS, "dagster-user-deployments")
    within(deployment, CHART_USER_DEPLOYMENT, "deployment")
    launcher = values["runLauncher"]["config"]["k8sRunLauncher"]
    within(launcher, CHART_K8S_RUN_LAUNCHER, "k8sRunLauncher")
    within(launcher["runK8sConfig"], CHART_RUN_K8S_CONFIG, "runK8sConfig")
    daemon = values["dagsterDaemon"]
    within(daemon, CHART_DAEMON, "dagsterDaemon")
    within(
        daemon["runCoordinator"]["config"]["queuedRunCoordinator"],
        CHART_QUEUED_RUN_COORDINATOR,
        "queuedRunCoordinator",
    )
    within(daemon["runMonitoring"], CHART_RUN_MONITORING, "runMonitoring")
    within(daemon["runRetries"], CHART_RUN_RETRIES, "runRetries")
    concurrency = values["concurrency"]
    within(concurrency, CHART_CONCURRENCY, "concurrency")
    within(concurrency["pools"], CHART_CONCURRENCY_POOLS, "concurrency.pools")
    within(concurrency["runs"], CHART_CONCURRENCY_RUNS, "concurrency.runs")
    for limit in concurrency["runs"]["tagConcurrencyLimits"]:
        within(limit, CHART_TAG_LIMIT, "tagConcurrencyLimits")


def test_values_launch_one_pod_per_run(values: dict):
    assert values["runLauncher"]["type"] == "K8sRunLauncher"
    launcher = values["runLauncher"]["config"]["k8sRunLauncher"]
    assert launcher["loadInclusterConfig"] is True
    pod = launcher["runK8sConfig"]["podSpecConfig"]["securityContext"]
    assert pod["runAsNonRoot"] is True and pod["runAsUser"] == 10001 and pod["fsGroup"] == 10001


def test_values_user_deployment_is_the_image(deployment: dict, dockerfile: str):
    image = deployment["image"]
    assert image["repository"] and isinstance(image["tag"], str) and image["tag"] != "latest"
    (cmd,) = _instructions(dockerfile, "CMD")
    argv = yaml.safe_load(cmd)
    assert deployment["codeServerArgs"] == argv[argv.index("-m") :]
    assert str(deployment["port"]) == argv[argv.index("-p") + 1]
    assert deployment["includeConfigInLaunchedRuns"] == {"enabled": True}
    ctx = deployment["podSecurityContext"]
    assert ctx["runAsNonRoot"] is True and ctx["runAsUser"] == 10001


def test_values_share_the_inbox_volume_with_run_pods(deployment: dict):
    pvc = yaml.safe_load(PVC.read_text(encoding="utf-8"))
    assert pvc["kind"] == "PersistentVolumeClaim"
    assert pvc["spec"]["accessModes"] == ["ReadWriteMany"]
    (volume,) = deployment["volumes"]
    assert volume["persistentVolumeClaim"]["claimName"] == pvc["metadata"]["name"]
    (mount,) = deployment["volumeMounts"]
    assert mount["name"] == volume["name"]
    # the same path in the code server and (includeConfigInLaunchedRuns) every run pod
    for var in ("TRAVELLER_INBOX", "TRAVELLER_PUBLISH"):
        assert deployment["env"][var].startswith(mount["mountPath"].rstrip("/") + "/")


def test_values_take_the_warehouse_and_dagsters_password_from_secrets(values: dict, deployment):
    assert deployment["envSecrets"] == [{"name": "traveller-warehouse"}]
    assert "TRAVELLER_WAREHOUSE" not in deployment["env"]  # never in a values file
    assert values["global"]["postgresqlSecretName"] == "dagster-postgresql-secret"
    pg = values["postgresql"]
    assert pg["enabled"] is False and pg["postgresqlHost"]
    assert "postgresqlPassword" not in pg
    assert values["generatePostgresqlPasswordSecret"] is False
    assert values["telemetry"]["enabled"] is False


def test_values_queue_runs_with_tag_limits_and_the_standings_pool(values: dict):
    daemon = values["dagsterDaemon"]
    assert daemon["runCoordinator"]["enabled"] is True
    assert daemon["runCoordinator"]["type"] == "QueuedRunCoordinator"
    queued = daemon["runCoordinator"]["config"]["queuedRunCoordinator"]
    # Dagster refuses run limits in the run coordinator once `concurrency` has runs or pools
    assert not {"maxConcurrentRuns", "tagConcurrencyLimits", "blockOpConcurrencyLimitedRuns"} & set(
        queued
    )
    assert queued["dequeueUseThreads"] is True
    concurrency = values["concurrency"]
    assert concurrency["enabled"] is True
    limits = {t["key"]: t for t in concurrency["runs"]["tagConcurrencyLimits"]}
    # one run of the same dates at a time (the tag of pipelines.partition_tags.range_tags),
    # one run of the whole-warehouse job at a time (its tag)
    assert limits[DATES]["limit"] == 1
    assert limits[DATES]["value"] == {"applyLimitPerUniqueValue": True}
    assert limits[WAREHOUSE] == {"key": WAREHOUSE, "value": WHOLE, "limit": 1}
    assert concurrency["pools"]["defaultLimit"] == 1
    assert concurrency["pools"]["granularity"] == "op"
    # runs waiting for the inbox slot (their first step) are launched all the same
    assert (
        concurrency["pools"]["opGranularityRunBuffer"] >= concurrency["runs"]["maxConcurrentRuns"]
    )


def _instance_yaml_as_the_chart_renders_it(values: dict) -> dict:
    """The parts of the chart's configmap-instance.yaml that our values drive, as its
    templates (helpers/instance/_run-coordinator.tpl, _concurrency.tpl) write them."""
    daemon = values["dagsterDaemon"]
    queued = daemon["runCoordinator"]["config"]["queuedRunCoordinator"]
    concurrency = values["concurrency"]
    runs = concurrency["runs"]
    return {
        "run_coordinator": {
            "module": "dagster.core.run_coordinator",
            "class": "QueuedRunCoordinator",
            "config": {
                "dequeue_use_threads": queued["dequeueUseThreads"],
                "dequeue_num_workers": queued["dequeueNumWorkers"],
            },
        },
        "concurrency": {
            "pools": {
                "default_limit": concurrency["pools"]["defaultLimit"],
                "granularity": concurrency["pools"]["granularity"],
                "op_granularity_run_buffer": concurrency["pools"]["opGranularityRunBuffer"],
            },
            "runs": {
                "max_concurrent_runs": runs["maxConcurrentRuns"],
                "tag_concurrency_limits": runs["tagConcurrencyLimits"],
            },
        },
        "run_monitoring": {
            "enabled": daemon["runMonitoring"]["enabled"],
            "start_timeout_seconds": daemon["runMonitoring"]["startTimeoutSeconds"],
            "poll_interval_seconds": daemon["runMonitoring"]["pollIntervalSeconds"],
            "free_slots_after_run_end_seconds": daemon["runMonitoring"][
                "freeSlotsAfterRunEndSeconds"
            ],
        },
        "run_retries": {
            "enabled": daemon["runRetries"]["enabled"],
            "max_retries": daemon["runRetries"]["maxRetries"],
        },
        "telemetry": {"enabled": values["telemetry"]["enabled"]},
    }


def test_dagster_accepts_the_instance_config_the_values_make(values: dict, tmp_path: Path):
    from dagster._core.instance.config import dagster_instance_config

    (tmp_path / "dagster.yaml").write_text(
        yaml.safe_dump(_instance_yaml_as_the_chart_renders_it(values)), encoding="utf-8"
    )
    config, _ = dagster_instance_config(str(tmp_path))
    assert config["concurrency"]["pools"]["default_limit"] == 1

    # ... and refuses the same values with the run limits also in the run coordinator
    clash = _instance_yaml_as_the_chart_renders_it(values)
    clash["run_coordinator"]["config"]["max_concurrent_runs"] = 8
    (tmp_path / "dagster.yaml").write_text(yaml.safe_dump(clash), encoding="utf-8")
    with pytest.raises(Exception, match="incompatible with the `concurrency > runs`"):
        dagster_instance_config(str(tmp_path))


# ---- the guide -------------------------------------------------------------------------


def test_guide_names_the_files_and_the_standings_pool():
    guide = GUIDE.read_text(encoding="utf-8")
    for path in (DOCKERFILE, DOCKERIGNORE, VALUES, PVC):
        assert str(path.relative_to(ROOT)) in guide
    assert re.search(r"^docker build -f docs/deploy/Dockerfile .* \.$", guide, re.M)
    assert "event_standings" in guide
    assert "dagster instance concurrency set event_standings 1" in guide


def test_the_lock_carries_what_the_image_checks_for():
    """The image's build fails unless ``import dagster_postgres, dagster_k8s`` works: uv.lock
    holds both at the release line of the locked dagster (1.13.x ↔ 0.29.x), and the drivers
    of the PostgreSQL deployment (psycopg2 for dagster-postgres, psycopg 3 and sqlglot for the
    warehouse)."""
    lock = tomllib.loads((ROOT / "uv.lock").read_text(encoding="utf-8"))
    versions = {p["name"]: p["version"] for p in lock["package"]}
    dagster = versions["dagster"].split(".")
    line = f"0.{int(dagster[1]) + 16}.{dagster[2]}"
    assert versions["dagster-postgres"] == line and versions["dagster-k8s"] == line
    assert {"psycopg2-binary", "psycopg", "psycopg-binary", "sqlglot"} <= set(versions)
    import dagster_k8s  # noqa: F401
    import dagster_postgres  # noqa: F401
