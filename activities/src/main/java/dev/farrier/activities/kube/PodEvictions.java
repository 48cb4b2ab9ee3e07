package dev.farrier.activities.kube;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@link PodEvictor} on the fabric8 client: eviction and forced deletion of pods, with the pod's UID as a
 * precondition (a pod already gone or replaced answers gone, so both are idempotent), and the pod reads a drain needs.
 * Raw requests rather than the client's {@code evict()}, because that returns a bare {@code false} on 429 and drops
 * the server's Status, whose cause names the blocking PodDisruptionBudget.
 *
 * <p>Every call here answers within {@link #CALL_TIMEOUT}, shorter than a drain pass's heartbeat timeout: the calls go
 * through a client of their own that never retries (the fabric8 client otherwise retries a 429 and 5xx with backoff,
 * honouring Retry-After, inside one call: a refused eviction then waited tens of seconds and the activity's
 * heartbeat timed out). A refusal is returned as a fact at once; retrying is the drain workflow's business.
 */
final class PodEvictions implements PodEvictor, AutoCloseable {
  /** When the server sends no Retry-After: about the time a replacement pod takes to become ready again. */
  static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(5);
  /** The bound of one call; the drain pass heartbeats between calls and its heartbeat timeout is 10 s. */
  static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);
  private static final int TOO_MANY_REQUESTS = 429;
  /** The server's words: "The disruption budget <name> needs 2 healthy pods and has 2 currently" (and kin). */
  private static final Pattern BUDGET_NAME = Pattern.compile("[Dd]isruption budget ([a-z0-9]([-a-z0-9.]*[a-z0-9])?)");

  private final KubernetesClient client;

  /** @param shared the worker's client: its configuration (endpoint, credentials) is reused, not its retry policy */
  PodEvictions(KubernetesClient shared) {
    Config bounded = new ConfigBuilder(shared.getConfiguration())
        .withRequestRetryBackoffLimit(0)
        .withRequestTimeout((int) CALL_TIMEOUT.toMillis())
        .build();
    this.client = new KubernetesClientBuilder().withConfig(bounded).build();
  }

  /** The client of bounded calls, for the other reads and writes a drain makes ({@link Fabric8WorkloadSurges}). */
  KubernetesClient bounded() {
    return client;
  }

  /** The pods bound to {@code nodeName}, in one bounded LIST. */
  @Override
  public List<Pod> listPodsOnNode(String nodeName) {
    return client.pods().inAnyNamespace().withField("spec.nodeName", nodeName).list().getItems();
  }

  @Override
  public void close() {
    client.close();
  }

  @Override
  public EvictionOutcome evictPod(Pod pod) throws PdbBlockedException {
    String namespace = pod.getMetadata().getNamespace();
    String name = pod.getMetadata().getName();
    Map<String, Object> eviction = new LinkedHashMap<>();
    eviction.put("apiVersion", "policy/v1");
    eviction.put("kind", "Eviction");
    eviction.put("metadata", Map.of("name", name, "namespace", namespace));
    eviction.put("deleteOptions", Map.of("preconditions", Map.of("uid", pod.getMetadata().getUid())));
    HttpClient http = client.getHttpClient();
    HttpRequest request = http.newHttpRequestBuilder()
        .uri(podUrl(namespace, name) + "/eviction")
        .post("application/json", client.getKubernetesSerialization().asJson(eviction))
        .build();
    HttpResponse<String> response = send(http, request);
    int code = response.code();
    if (response.isSuccessful()) {
      return EvictionOutcome.EVICTED;
    }
    if (code == HttpURLConnection.HTTP_NOT_FOUND || code == HttpURLConnection.HTTP_CONFLICT) {
      return EvictionOutcome.GONE;
    }
    Status status = parseStatus(response.body());
    if (code == TOO_MANY_REQUESTS && isDisruptionBudgetRefusal(status)) {
      String pdbName = budgetNameFromServer(status).or(() -> matchingBudget(pod)).orElse(null);
      throw new PdbBlockedException(namespace, name, pdbName == null ? null : namespace, pdbName,
          retryAfter(response, status), status == null ? "" : status.getMessage());
    }
    throw failure("evict pod " + namespace + "/" + name, code, status, request);
  }

  @Override
  public boolean deletePod(Pod pod, Long gracePeriodSeconds) {
    String namespace = pod.getMetadata().getNamespace();
    String name = pod.getMetadata().getName();
    Map<String, Object> options = new LinkedHashMap<>();
    options.put("apiVersion", "v1");
    options.put("kind", "DeleteOptions");
    if (gracePeriodSeconds != null) {
      options.put("gracePeriodSeconds", gracePeriodSeconds);
    }
    options.put("preconditions", Map.of("uid", pod.getMetadata().getUid()));
    HttpClient http = client.getHttpClient();
    HttpRequest request = http.newHttpRequestBuilder()
        .uri(podUrl(namespace, name))
        .delete("application/json", client.getKubernetesSerialization().asJson(options))
        .build();
    HttpResponse<String> response = send(http, request);
    int code = response.code();
    if (response.isSuccessful()) {
      return true;
    }
    if (code == HttpURLConnection.HTTP_NOT_FOUND || code == HttpURLConnection.HTTP_CONFLICT) {
      return false;
    }
    throw failure("delete pod " + namespace + "/" + name, code, parseStatus(response.body()), request);
  }

  /**
   * A 429 can also be API priority-and-fairness throttling; only a refusal citing a disruption budget is a PDB
   * block. The eviction handler marks it with a cause of type (JSON {@code reason}) {@code DisruptionBudget}.
   */
  private static boolean isDisruptionBudgetRefusal(Status status) {
    if (status == null) {
      return false;
    }
    boolean cause = causes(status).stream().anyMatch(c -> "DisruptionBudget".equals(c.getReason()));
    return cause || (status.getMessage() != null && status.getMessage().contains("disruption budget"));
  }

  private static Optional<String> budgetNameFromServer(Status status) {
    return causes(status).stream()
        .map(cause -> budgetNameIn(cause.getMessage()))
        .flatMap(Optional::stream)
        .findFirst();
  }

  /** The PDB name in a cause message of the eviction handler, if it names one. */
  static Optional<String> budgetNameIn(String message) {
    if (message == null) {
      return Optional.empty();
    }
    Matcher m = BUDGET_NAME.matcher(message);
    return m.find() ? Optional.of(m.group(1)) : Optional.empty();
  }

  /** The PDB of the pod's namespace whose selector matches the pod (the server allows evictions only with one). */
  private Optional<String> matchingBudget(Pod pod) {
    List<PodDisruptionBudget> budgets = client.policy().v1().podDisruptionBudget()
        .inNamespace(pod.getMetadata().getNamespace()).list().getItems();
    return budgets.stream()
        .filter(b -> LabelSelectors.matches(b.getSpec().getSelector(), pod.getMetadata().getLabels()))
        .map(b -> b.getMetadata().getName())
        .findFirst();
  }

  private static Duration retryAfter(HttpResponse<String> response, Status status) {
    String header = response.header("Retry-After");
    if (header != null) {
      try {
        long seconds = Long.parseLong(header.trim());
        if (seconds > 0) {
          return Duration.ofSeconds(seconds);
        }
      } catch (NumberFormatException ignored) {
        // An HTTP-date Retry-After: the default below is as good a hint.
      }
    }
    if (status != null && status.getDetails() != null && status.getDetails().getRetryAfterSeconds() != null
        && status.getDetails().getRetryAfterSeconds() > 0) {
      return Duration.ofSeconds(status.getDetails().getRetryAfterSeconds());
    }
    return DEFAULT_RETRY_AFTER;
  }

  private static List<StatusCause> causes(Status status) {
    if (status == null || status.getDetails() == null || status.getDetails().getCauses() == null) {
      return List.of();
    }
    return status.getDetails().getCauses();
  }

  private Status parseStatus(String body) {
    if (body == null || body.isBlank()) {
      return null;
    }
    try {
      return client.getKubernetesSerialization().unmarshal(body, Status.class);
    } catch (RuntimeException notAStatus) {
      return null;
    }
  }

  private String podUrl(String namespace, String name) {
    String base = client.getMasterUrl().toString();
    String separator = base.endsWith("/") ? "" : "/";
    return base + separator + "api/v1/namespaces/" + namespace + "/pods/" + name;
  }

  private static HttpResponse<String> send(HttpClient http, HttpRequest request) {
    try {
      // The client's own request timeout ends the call first; this bound only guards against a lost completion.
      return http.sendAsync(request, String.class).get(CALL_TIMEOUT.toMillis() + 1000, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw KubernetesClientException.launderThrowable(e);
    } catch (ExecutionException e) {
      throw KubernetesClientException.launderThrowable(e.getCause());
    } catch (TimeoutException e) {
      throw KubernetesClientException.launderThrowable(e);
    }
  }

  private static KubernetesClientException failure(String what, int code, Status status, HttpRequest request) {
    String message = status != null && status.getMessage() != null ? status.getMessage() : "HTTP " + code;
    return new KubernetesClientException("cannot " + what + ": " + message, null, code, status, request);
  }
}
