package dev.farrier.localstack;

import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Command lines of the control plane components. Pure: building them touches no file, so a test can read them.
 *
 * @param binDir where the binaries are
 * @param runDir where data, configs and logs go
 * @param controlPlaneQps the scheduler's and controller-manager's request rate to the API server, 0 for their defaults
 */
record KubernetesCommands(Path binDir, Path runDir, KubernetesPorts ports, ClusterFiles files, int controlPlaneQps) {
  /** The annotation Farrier's simulated cloud puts on the Nodes it creates; kwok manages exactly those. */
  static final String KWOK_NODE_SELECTOR = "kwok.x-k8s.io/node=fake";
  /** Pod IPs kwok hands out; a /16 so scale tests do not run out, apart from the service range. */
  static final String POD_CIDR = "10.244.0.1/16";
  static final String SERVICE_ACCOUNT_ISSUER = "https://kubernetes.default.svc.cluster.local";
  /** How long a simulated node's Lease may go unrenewed before the node lifecycle controller calls it Unknown. */
  static final String NODE_MONITOR_GRACE_PERIOD = "3m";
  /** Lease renewals kwok runs at once (its default is 4): each is an API call, and the stack renews one per node. */
  static final int KWOK_LEASE_PARALLELISM = 16;
  /**
   * Node and pod stages kwok plays at once (its default is 4 each): a node's stage makes a new node Ready, a pod's makes
   * a bound pod Running, and a fleet roll brings dozens of each at once. The fleet benchmark reports how long new nodes
   * waited (docs/benchmarks/fleet-rolls.md).
   */
  static final int KWOK_STAGE_PARALLELISM = 16;

  Path etcdDataDir() {
    return runDir.resolve("etcd");
  }

  Path kwokConfig() {
    return runDir.resolve("kwok.yaml");
  }

  List<String> etcd() {
    String peer = "http://127.0.0.1:" + ports.etcdPeer();
    return List.of(bin("etcd"),
        "--name=farrier",
        "--data-dir=" + etcdDataDir(),
        "--listen-client-urls=" + ports.etcdUrl(),
        "--advertise-client-urls=" + ports.etcdUrl(),
        "--listen-peer-urls=" + peer,
        "--initial-advertise-peer-urls=" + peer,
        "--initial-cluster=farrier=" + peer,
        // A throwaway data dir: losing the last writes on a power cut costs nothing, fsync costs seconds.
        "--unsafe-no-fsync",
        "--log-level=warn");
  }

  List<String> apiServer() {
    return List.of(bin("kube-apiserver"),
        "--etcd-servers=" + ports.etcdUrl(),
        "--bind-address=127.0.0.1",
        "--advertise-address=127.0.0.1",
        "--secure-port=" + ports.apiServer(),
        "--cert-dir=" + runDir.resolve("pki"),
        "--tls-cert-file=" + files.servingCert(),
        "--tls-private-key-file=" + files.servingKey(),
        "--client-ca-file=" + files.caCert(),
        "--token-auth-file=" + files.tokenFile(),
        // Published in kube-system/extension-apiserver-authentication; the controller manager and scheduler read
        // it for their own authentication and log an error every few seconds while it is missing.
        "--requestheader-client-ca-file=" + files.caCert(),
        "--requestheader-allowed-names=front-proxy-client",
        "--requestheader-username-headers=X-Remote-User",
        "--requestheader-group-headers=X-Remote-Group",
        "--requestheader-extra-headers-prefix=X-Remote-Extra-",
        "--authorization-mode=RBAC",
        "--service-account-issuer=" + SERVICE_ACCOUNT_ISSUER,
        "--service-account-key-file=" + files.serviceAccountPublicKey(),
        "--service-account-signing-key-file=" + files.serviceAccountKey(),
        "--service-cluster-ip-range=" + ClusterFiles.SERVICE_CLUSTER_IP_RANGE,
        "--allow-privileged=true",
        // Endpoints may not hold a loopback address, so the reconciler that publishes the API server's own
        // address would only log errors; nothing in the stack reaches it through the kubernetes Service.
        "--endpoint-reconciler-type=none",
        "--profiling=false");
  }

  List<String> controllerManager() {
    return controlPlaneComponent("kube-controller-manager", files.controllerManagerKubeconfig(), ports.controllerManager(),
        "--controllers=*",
        "--use-service-account-credentials=true",
        "--service-account-private-key-file=" + files.serviceAccountKey(),
        "--root-ca-file=" + files.caCert(),
        "--cluster-signing-cert-file=" + files.caCert(),
        "--cluster-signing-key-file=" + files.caKey(),
        "--service-cluster-ip-range=" + ClusterFiles.SERVICE_CLUSTER_IP_RANGE,
        // Its default, /usr/libexec/kubernetes/..., is created when missing: keep the stack's writes in runDir.
        "--flex-volume-plugin-dir=" + runDir.resolve("flexvolume"),
        // One kwok on shared cores renews every simulated node's Lease. With hundreds of nodes its renewals came up
        // to 54 s apart (a kubelet per machine keeps 10 s); past the default 50 s the node lifecycle controller calls
        // the node Unknown and sets its pods' Ready False, which kwok never sets back
        // (docs/benchmarks/fleet-rolls.md, "Why pods went not Ready at 500 nodes").
        "--node-monitor-grace-period=" + NODE_MONITOR_GRACE_PERIOD);
  }

  List<String> scheduler() {
    return controlPlaneComponent("kube-scheduler", files.schedulerKubeconfig(), ports.scheduler());
  }

  /**
   * What controller-manager and scheduler share: one kubeconfig for the API and for delegated authn/authz, secure
   * serving on loopback with the stack's certificate, no leader election (one of each), no profiling.
   */
  private List<String> controlPlaneComponent(String binary, Path kubeconfig, int securePort, String... extra) {
    List<String> command = new ArrayList<>(List.of(bin(binary),
        "--kubeconfig=" + kubeconfig,
        "--authentication-kubeconfig=" + kubeconfig,
        "--authorization-kubeconfig=" + kubeconfig,
        "--bind-address=127.0.0.1",
        "--secure-port=" + securePort,
        "--tls-cert-file=" + files.servingCert(),
        "--tls-private-key-file=" + files.servingKey(),
        "--leader-elect=false",
        "--profiling=false"));
    if (controlPlaneQps > 0) {
      command.addAll(List.of("--kube-api-qps=" + controlPlaneQps, "--kube-api-burst=" + 2 * controlPlaneQps));
    }
    command.addAll(List.of(extra));
    return List.copyOf(command);
  }

  /**
   * kwok with its built-in stages (node-initialize, node-heartbeat, pod-ready, pod-complete, pod-delete), which
   * it uses when the config holds no Stage. The explicit {@code --config} keeps a developer's
   * {@code ~/.kwok/kwok.yaml} out of the stack.
   */
  List<String> kwok() {
    return List.of(bin("kwok"),
        "--kubeconfig=" + files.kwokKubeconfig(),
        "--config=" + kwokConfig(),
        "--manage-all-nodes=false",
        "--manage-nodes-with-annotation-selector=" + KWOK_NODE_SELECTOR,
        "--cidr=" + POD_CIDR,
        "--node-lease-duration-seconds=40",
        "--server-address=127.0.0.1:" + ports.kwok());
  }

  /**
   * The file {@link #kwok()} points {@code --config} at: the same options as the flags, more work at once than kwok's
   * defaults, and no stages.
   */
  static String kwokConfiguration() {
    Map<String, Object> options = new LinkedHashMap<>();
    options.put("manageAllNodes", false);
    options.put("manageNodesWithAnnotationSelector", KWOK_NODE_SELECTOR);
    options.put("cidr", POD_CIDR);
    options.put("nodeLeaseDurationSeconds", 40);
    options.put("nodeLeaseParallelism", KWOK_LEASE_PARALLELISM);
    options.put("nodePlayStageParallelism", KWOK_STAGE_PARALLELISM);
    options.put("podPlayStageParallelism", KWOK_STAGE_PARALLELISM);
    Map<String, Object> config = new LinkedHashMap<>();
    config.put("apiVersion", "config.kwok.x-k8s.io/v1alpha1");
    config.put("kind", "KwokConfiguration");
    config.put("options", options);
    return Serialization.asYaml(config);
  }

  private String bin(String name) {
    return binDir.resolve(name).toString();
  }
}
