"""The official Python client (kubernetes-client/python) asks rrgen-cluster for metadata only, with
the Accept headers client-go's metadata client sends, over HTTPS with the kubeconfig the cluster
writes. Usage: python_metadata_client.py <rrgen-cluster>. Exit 77 (skipped) without the module."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


def python_with_kubernetes():
    """Another python3 on PATH that has the module (e.g. the system one beside a pyenv shim)."""
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        candidate = shutil.which("python3", path=directory)
        if not candidate or os.path.realpath(candidate) == os.path.realpath(sys.executable):
            continue
        if subprocess.run([candidate, "-c", "import kubernetes"], capture_output=True).returncode == 0:
            return candidate
    return None


try:
    from kubernetes import client, config
except ImportError:
    if os.environ.get("RRGEN_PY_REEXEC") != "1":
        other = python_with_kubernetes()
        if other:
            os.environ["RRGEN_PY_REEXEC"] = "1"
            os.execv(other, [other] + sys.argv)
    print("python3-kubernetes is not installed: skipped")
    sys.exit(77)

POM = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1"
CLIENT_GO_LIST = ("application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,"
                  "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json")


def main(cluster_binary):
    workdir = tempfile.mkdtemp(prefix="rr-python-metadata-")
    kubeconfig = os.path.join(workdir, "kubeconfig")
    log = open(os.path.join(workdir, "server.log"), "w")
    server = subprocess.Popen([cluster_binary, "--port", "0", "--kubeconfig-out", kubeconfig],
                              stdout=log, stderr=subprocess.STDOUT)
    try:
        for _ in range(200):  # the kubeconfig is written once the server listens
            if os.path.exists(kubeconfig) and os.path.getsize(kubeconfig) > 0:
                break
            time.sleep(0.1)
        time.sleep(0.2)
        config.load_kube_config(kubeconfig)
        api = client.CoreV1Api()
        api.create_namespaced_config_map("default", client.V1ConfigMap(
            metadata=client.V1ObjectMeta(name="big", labels={"app": "web"}), data={"payload": "x" * 100000}))

        def raw(path, accept):
            response = api.api_client.call_api(path, "GET", header_params={"Accept": accept},
                                               _preload_content=False, auth_settings=["BearerToken"])[0]
            return response.status, response.data

        status, body = raw("/api/v1/namespaces/default/configmaps/big", POM)
        one = json.loads(body)
        assert status == 200 and one["kind"] == "PartialObjectMetadata", one
        assert one["apiVersion"] == "meta.k8s.io/v1" and sorted(one) == ["apiVersion", "kind", "metadata"], one
        assert one["metadata"]["labels"] == {"app": "web"} and len(body) < 2000, len(body)

        status, body = raw("/api/v1/namespaces/default/configmaps", CLIENT_GO_LIST)
        listed = json.loads(body)
        assert status == 200 and listed["kind"] == "PartialObjectMetadataList", listed
        # kube-root-ca.crt is in every namespace, as kube-controller-manager's publisher puts it there.
        assert [i["metadata"]["name"] for i in listed["items"]] == ["big", "kube-root-ca.crt"], listed
        assert listed["metadata"]["resourceVersion"], listed

        try:
            raw("/api/v1/namespaces/default/configmaps/big", "application/json;as=Foo;g=meta.k8s.io;v=v1")
            raise AssertionError("as=Foo was answered")
        except client.exceptions.ApiException as e:
            refusal = json.loads(e.body)
            assert e.status == 406 and refusal["reason"] == "NotAcceptable", e.body

        # The typed API still reads whole objects.
        assert len(api.read_namespaced_config_map("big", "default").data["payload"]) == 100000
        print("python metadata client: PASSED")
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1])
