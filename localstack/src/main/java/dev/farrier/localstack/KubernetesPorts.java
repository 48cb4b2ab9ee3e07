package dev.farrier.localstack;

/** The loopback ports of one local control plane. */
record KubernetesPorts(int etcdClient, int etcdPeer, int apiServer, int controllerManager, int scheduler, int kwok) {
  static KubernetesPorts pick(FreePorts ports) {
    return new KubernetesPorts(ports.next(), ports.next(), ports.next(), ports.next(), ports.next(), ports.next());
  }

  String apiServerUrl() {
    return "https://127.0.0.1:" + apiServer;
  }

  String etcdUrl() {
    return "http://127.0.0.1:" + etcdClient;
  }
}
