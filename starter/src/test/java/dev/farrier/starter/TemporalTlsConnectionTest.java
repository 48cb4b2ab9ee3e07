package dev.farrier.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.client.TemporalConnection;
import dev.farrier.localstack.Pki;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.ClientAuth;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.stub.StreamObserver;
import io.temporal.api.workflowservice.v1.GetSystemInfoRequest;
import io.temporal.api.workflowservice.v1.GetSystemInfoResponse;
import io.temporal.api.workflowservice.v1.WorkflowServiceGrpc;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * {@link TemporalConnection} against a real TLS gRPC server in this JVM that answers Temporal's health check and
 * {@code GetSystemInfo}: the CA is checked, a client certificate is presented for mTLS, the server name override is
 * used, and the API key goes out as {@code authorization: Bearer <key>}, read again after the file changes.
 */
@Execution(ExecutionMode.CONCURRENT) // each test has its own server; most of them wait out a refused handshake
class TemporalTlsConnectionTest {
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(20);

  @TempDir static Path dir;
  private static Path caFile;
  private static Path otherCaFile;
  private static Path serverCert;
  private static Path serverKey;
  private static Path clientCert;
  private static Path clientKeyPkcs8;
  /** The client's key as OpenSSL's traditional SEC 1 PEM, and an RSA key as PKCS#1: neither is PKCS#8. */
  private static Path clientKeySec1;
  private static Path rsaKeyPkcs1;
  /** Serves only the name {@code temporal.example}, not the loopback address. */
  private static Path namedServerCert;
  private static Path namedServerKey;

  private final List<String> authorizations = new CopyOnWriteArrayList<>();
  private final List<String> clientSubjects = new CopyOnWriteArrayList<>();
  private Server server;
  private WorkflowServiceStubs stubs;

  @BeforeAll
  static void certificates() throws IOException {
    Pki.Issued ca = Pki.certificateAuthority("farrier-test-ca", Duration.ofDays(1));
    caFile = write("ca.pem", Pki.pem(ca.certificate()));
    otherCaFile = write("other-ca.pem", Pki.pem(Pki.certificateAuthority("someone-else", Duration.ofDays(1)).certificate()));
    Pki.Issued serving = Pki.servingCertificate(ca, "temporal", List.of("localhost"), List.of("127.0.0.1"), Duration.ofDays(1));
    serverCert = write("server.pem", Pki.pem(serving.certificate()));
    serverKey = write("server-key.pem", Pki.pem(serving.keyPair().getPrivate()));
    Pki.Issued named = Pki.servingCertificate(ca, "temporal", List.of("temporal.example"), List.of(), Duration.ofDays(1));
    namedServerCert = write("named.pem", Pki.pem(named.certificate()));
    namedServerKey = write("named-key.pem", Pki.pem(named.keyPair().getPrivate()));
    Pki.Issued client = Pki.servingCertificate(ca, "farrier-worker", List.of("farrier-worker"), List.of(), Duration.ofDays(1));
    clientCert = write("client.pem", Pki.pem(client.certificate()));
    clientKeyPkcs8 = write("client-key.pem", Pki.pem(client.keyPair().getPrivate()));
    clientKeySec1 = write("client-key-sec1.pem", traditionalPem(client.keyPair().getPrivate()));
    rsaKeyPkcs1 = write("client-key-rsa.pem", traditionalPem(rsaKeyPair().getPrivate()));
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (stubs != null) {
      stubs.shutdownNow();
      stubs.awaitTermination(10, TimeUnit.SECONDS);
    }
    if (server != null) {
      server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void tlsWithTheRightCaConnects() throws IOException {
    String address = start(serverCert, serverKey, ClientAuth.NONE);
    connect(tls(address, caFile, null, null, null, null));
    assertEquals(List.of(), clientSubjects, "no client certificate was asked for or sent");
  }

  @Test
  void tlsWithTheWrongCaFailsNamingTheCertificateProblem() throws IOException {
    String address = start(serverCert, serverKey, ClientAuth.NONE);
    var connection = tls(address, otherCaFile, null, null, null, null);
    var failure = assertThrows(RuntimeException.class,
        () -> WorkflowServiceStubs.newConnectedServiceStubs(connection.serviceStubsOptions().build(), CONNECT_TIMEOUT));
    String message = allMessages(failure);
    assertTrue(message.contains("PKIX path building failed") || message.contains("unable to find valid certification path"),
        "the failure says the certificate is not trusted: " + message);
  }

  @Test
  void theCliSaysWhyItCannotConnectWhenTheCaIsWrong() throws IOException {
    String address = start(serverCert, serverKey, ClientAuth.NONE);
    var err = new ByteArrayOutputStream();
    var cli = new FarrierCli();
    cli.connectTimeout = CONNECT_TIMEOUT;
    var commandLine = FarrierCli.commandLine(cli);
    commandLine.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
    int exit = commandLine.execute("list", "--address", address, "--temporal-tls-ca", otherCaFile.toString());
    assertEquals(ExitCodes.ERROR, exit);
    String said = err.toString(StandardCharsets.UTF_8);
    assertTrue(said.contains("cannot reach Temporal at " + address + " (namespace default, TLS): TLS handshake failed: ")
        && said.contains("unable to find valid certification path"), "the CLI names the address, how and why: " + said);
  }

  @Test
  void mtlsPresentsTheClientCertificate() throws IOException {
    String address = start(serverCert, serverKey, ClientAuth.REQUIRE);
    connect(tls(address, caFile, clientCert, clientKeyPkcs8, null, null));
    assertTrue(clientSubjects.contains("CN=farrier-worker"), "the server saw the client certificate: " + clientSubjects);
  }

  @Test
  void aPkcs1OrSec1KeyIsRefusedWithTheCommandThatConvertsIt() {
    // The TLS stack reads these only with BouncyCastle on the class path, which the CLI does not have.
    for (Path key : List.of(rsaKeyPkcs1, clientKeySec1)) {
      var connection = tls("127.0.0.1:1", caFile, clientCert, key, null, null);
      var failure = assertThrows(IllegalArgumentException.class, connection::serviceStubsOptions);
      assertTrue(failure.getMessage().contains("openssl pkcs8 -topk8 -nocrypt -in " + key), failure.getMessage());
    }
  }

  @Test
  void mtlsWithoutAClientCertificateIsRefused() throws IOException {
    String address = start(serverCert, serverKey, ClientAuth.REQUIRE);
    var connection = tls(address, caFile, null, null, null, null);
    assertThrows(RuntimeException.class,
        () -> WorkflowServiceStubs.newConnectedServiceStubs(connection.serviceStubsOptions().build(), CONNECT_TIMEOUT));
    assertEquals(List.of(), clientSubjects);
  }

  @Test
  void theServerNameOverrideIsWhatTheCertificateIsCheckedAgainst() throws IOException {
    String address = start(namedServerCert, namedServerKey, ClientAuth.NONE);
    var withoutName = tls(address, caFile, null, null, null, null);
    assertThrows(RuntimeException.class,
        () -> WorkflowServiceStubs.newConnectedServiceStubs(withoutName.serviceStubsOptions().build(), CONNECT_TIMEOUT),
        "127.0.0.1 is not a name in the certificate");
    connect(tls(address, caFile, null, null, "temporal.example", null));
  }

  @Test
  void theApiKeyIsSentAndARotatedKeyIsPickedUp() throws IOException {
    String address = start(serverCert, serverKey, ClientAuth.NONE);
    Path keyFile = write("api-key-" + System.nanoTime(), "first-key\n");
    var connection = new TemporalConnection(address, "ns.acct", false, caFile, null, null, null, keyFile);
    assertTrue(connection.tls(), "an API key turns TLS on");
    connect(connection);
    assertEquals("Bearer first-key", authorizations.getLast());

    Files.writeString(keyFile, "second-key");
    stubs.blockingStub().getSystemInfo(GetSystemInfoRequest.getDefaultInstance());
    assertEquals("Bearer second-key", authorizations.getLast());
  }

  @Test
  void withoutAnApiKeyNoAuthorizationIsSent() throws IOException {
    String address = start(serverCert, serverKey, ClientAuth.NONE);
    connect(tls(address, caFile, null, null, null, null));
    assertTrue(authorizations.stream().allMatch(a -> a.equals("none")), authorizations.toString());
  }

  @Test
  void theCliFlagsMakeTheConnection() {
    var cli = new FarrierCli();
    FarrierCli.commandLine(cli).parseArgs("list", "--address", "ns.acct.tmprl.cloud:7233", "--namespace", "ns.acct",
        "--temporal-tls-cert", clientCert.toString(), "--temporal-tls-key", clientKeyPkcs8.toString(),
        "--temporal-tls-server-name", "temporal.example");
    assertEquals(new TemporalConnection("ns.acct.tmprl.cloud:7233", "ns.acct", true, null, clientCert, clientKeyPkcs8,
        "temporal.example", null), cli.connection());
  }

  @Test
  void aCertificateWithoutItsKeyIsABadCommandLine() {
    var err = new ByteArrayOutputStream();
    var commandLine = FarrierCli.commandLine(new FarrierCli());
    commandLine.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
    int exit = commandLine.execute("list", "--temporal-tls-cert", clientCert.toString());
    assertEquals(ExitCodes.USAGE, exit);
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("FARRIER_TEMPORAL_TLS_KEY_FILE (--temporal-tls-key)"), err.toString());
  }

  @Test
  void aKeyThatIsNotAKeyIsNamed() {
    var connection = tls("127.0.0.1:1", caFile, clientCert, caFile, null, null);
    var failure = assertThrows(IllegalArgumentException.class, connection::serviceStubsOptions);
    assertTrue(failure.getMessage().contains("FARRIER_TEMPORAL_TLS_KEY_FILE " + caFile), failure.getMessage());
  }

  private void connect(TemporalConnection connection) {
    stubs = WorkflowServiceStubs.newConnectedServiceStubs(connection.serviceStubsOptions().build(), CONNECT_TIMEOUT);
    assertNotNull(stubs.blockingStub().getSystemInfo(GetSystemInfoRequest.getDefaultInstance()));
  }

  private static TemporalConnection tls(String address, Path ca, Path cert, Path key, String serverName, Path apiKey) {
    return new TemporalConnection(address, "default", true, ca, cert, key, serverName, apiKey);
  }

  /** A TLS server on a free loopback port; returns its address. */
  private String start(Path cert, Path key, ClientAuth clientAuth) throws IOException {
    var health = new HealthStatusManager();
    health.setStatus(WorkflowServiceGrpc.SERVICE_NAME, ServingStatus.SERVING);
    var workflowService = new WorkflowServiceGrpc.WorkflowServiceImplBase() {
      @Override
      public void getSystemInfo(GetSystemInfoRequest request, StreamObserver<GetSystemInfoResponse> response) {
        response.onNext(GetSystemInfoResponse.newBuilder().setServerVersion("test").build());
        response.onCompleted();
      }
    };
    var ssl = GrpcSslContexts.forServer(cert.toFile(), key.toFile()).trustManager(caFile.toFile()).clientAuth(clientAuth).build();
    ServerInterceptor recorder = new ServerInterceptor() {
      @Override
      public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
        String authorization = headers.get(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER));
        authorizations.add(authorization == null ? "none" : authorization);
        SSLSession session = call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION);
        try {
          if (session != null) {
            clientSubjects.add(((X509Certificate) session.getPeerCertificates()[0]).getSubjectX500Principal().getName());
          }
        } catch (SSLPeerUnverifiedException noClientCertificate) {
          // TLS without mTLS: nothing to record.
        }
        return next.startCall(call, headers);
      }
    };
    server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).sslContext(ssl)
        .addService(ServerInterceptors.intercept(health.getHealthService(), recorder))
        .addService(ServerInterceptors.intercept(workflowService, recorder))
        .build().start();
    return "127.0.0.1:" + server.getPort();
  }

  /** Small: only its PEM header matters here, and a 2048-bit key takes seconds to make on a busy machine. */
  private static KeyPair rsaKeyPair() {
    try {
      var generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(1024);
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** OpenSSL's traditional form: PKCS#1 "RSA PRIVATE KEY" or SEC 1 "EC PRIVATE KEY" (only the header matters here). */
  private static String traditionalPem(PrivateKey key) throws IOException {
    StringWriter text = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
      writer.writeObject(key);
    }
    return text.toString();
  }


  private static Path write(String name, String text) throws IOException {
    return Files.writeString(dir.resolve(name), text);
  }

  private static String allMessages(Throwable failure) {
    var text = new StringBuilder();
    for (Throwable t = failure; t != null; t = t.getCause()) {
      text.append(t).append(" | ");
    }
    return text.toString();
  }
}
