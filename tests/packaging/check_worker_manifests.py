#!/usr/bin/env python3
"""The Kubernetes recipes of packaging/workers/ (arena/WORKERS.md, "Placing
workers") parsed as YAML and checked for what makes them work together: the
host's Deployment (one replica, Recreate, its directory on the claim, -j 0),
its Service (selector and port meeting the pod's), and the workers' Deployment
(pointed at that Service, the token file on the Secret's mount, -j equal to
the CPUs asked, time to release a lease on SIGTERM).
  check_worker_manifests.py PACKAGING_WORKERS_DIR
Exit 77 (skipped) without python3's yaml module."""
import os
import sys

try:
    import yaml
except ImportError:
    print("SKIPPED: python3 has no yaml module (Debian package python3-yaml)")
    sys.exit(77)

problems = []


def need(ok, what):
    if not ok:
        problems.append(what)


def load(path):
    with open(path, encoding="utf-8") as f:
        docs = [d for d in yaml.safe_load_all(f) if d]
    by_kind = {}
    for d in docs:
        for key in ("apiVersion", "kind", "metadata", "spec"):
            need(key in d, f"{os.path.basename(path)}: a document without {key}")
        by_kind.setdefault(d.get("kind"), []).append(d)
    return by_kind


def option(command, name):
    """The value after option name in a command list, or None."""
    for i, word in enumerate(command[:-1]):
        if word == name:
            return command[i + 1]
    return None


def pod_of(deployment, what):
    spec = deployment["spec"]
    labels = spec["template"]["metadata"]["labels"]
    need(spec["selector"]["matchLabels"].items() <= labels.items(),
         f"{what}: the selector does not match the pod's labels")
    return spec["template"]["spec"], labels


def grace_enough(pod, what):
    grace = pod.get("terminationGracePeriodSeconds", 30)
    need(isinstance(grace, int) and grace >= 90,
         f"{what}: terminationGracePeriodSeconds {grace}: under 90 s, a game in progress "
         "(game_ms 60 s) and the lease's release do not fit")


def check_host(by_kind):
    claim = by_kind["PersistentVolumeClaim"][0]["metadata"]["name"]
    dep = by_kind["Deployment"][0]
    need(dep["spec"].get("replicas") == 1, "host.yaml: the host must have 1 replica")
    need(dep["spec"].get("strategy", {}).get("type") == "Recreate",
         "host.yaml: strategy Recreate, so that no two hosts share the directory")
    pod, labels = pod_of(dep, "host.yaml")
    grace_enough(pod, "host.yaml")
    c = pod["containers"][0]
    cmd = c["command"]
    need(cmd[:2] == ["skipbo-arena", "host"], f"host.yaml: the command {cmd}")
    need(option(cmd, "-j") == "0", "host.yaml: host -j 0 (the workers play)")
    listen = option(cmd, "--listen") or ""
    need(listen.startswith("0.0.0.0:"), f"host.yaml: --listen {listen}: not every address")
    port = int(listen.rsplit(":", 1)[-1] or 0)
    ports = {p.get("name"): p["containerPort"] for p in c["ports"]}
    need(port in ports.values(), f"host.yaml: listens on {port}, declares {ports}")
    mounts = {m["name"]: m["mountPath"] for m in c["volumeMounts"]}
    vols = {v["name"]: v for v in pod["volumes"]}
    on_claim = [n for n, v in vols.items()
                if v.get("persistentVolumeClaim", {}).get("claimName") == claim]
    need(len(on_claim) == 1 and mounts.get(on_claim[0]) == cmd[-1],
         f"host.yaml: the league's directory {cmd[-1]} is not the claim {claim}'s mount")
    svc = by_kind["Service"][0]
    need(svc["spec"]["selector"].items() <= labels.items(),
         "host.yaml: the Service selects no host pod")
    sp = svc["spec"]["ports"][0]
    target = sp.get("targetPort", sp["port"])
    need(ports.get(target, target) == port,
         f"host.yaml: the Service's targetPort {target} is not the host's port {port}")
    return svc["metadata"]["name"], sp["port"]


def check_workers(by_kind, service, service_port):
    dep = by_kind["Deployment"][0]
    need(isinstance(dep["spec"].get("replicas"), int), "workers.yaml: no replicas")
    pod, _ = pod_of(dep, "workers.yaml")
    grace_enough(pod, "workers.yaml")
    c = pod["containers"][0]
    cmd = c["command"]
    need(cmd[:2] == ["skipbo-arena", "work"], f"workers.yaml: the command {cmd}")
    url = cmd[-1]
    need(url == f"http://{service}:{service_port}/",
         f"workers.yaml: the URL {url} is not the Service {service}:{service_port}")
    cpu = c["resources"]["requests"]["cpu"]
    need(option(cmd, "-j") == str(cpu), f"workers.yaml: -j {option(cmd, '-j')} for {cpu} CPUs")
    token = option(cmd, "--token-file") or ""
    mounts = {m["name"]: m["mountPath"] for m in c["volumeMounts"]}
    vols = {v["name"]: v for v in pod["volumes"]}
    secret = [n for n, v in vols.items() if "secret" in v]
    need(len(secret) == 1 and os.path.dirname(token) == mounts.get(secret[0]),
         f"workers.yaml: the token file {token} is not on the Secret's mount")


def main():
    d = sys.argv[1]
    try:
        service, port = check_host(load(os.path.join(d, "host.yaml")))
        check_workers(load(os.path.join(d, "workers.yaml")), service, port)
    except (KeyError, IndexError, TypeError, ValueError, yaml.YAMLError) as e:
        problems.append(f"a required field is missing or malformed: {type(e).__name__} {e}")
    for p in problems:
        print("FAIL:", p)
    if problems:
        sys.exit(1)
    print("the Kubernetes recipes agree")


main()
