package dev.farrier.activities.cloud;

import dev.farrier.activities.metrics.MetricCatalog;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A {@link CloudProvider} that times every call and counts its failures, as Karpenter's cloud provider metrics
 * decorator does: {@code karpenter_cloudprovider_duration_seconds} (Karpenter's buckets) and
 * {@code karpenter_cloudprovider_errors_total} by {@code controller} (who called: one decorator per caller),
 * {@code method} (Karpenter's method name where one exists), {@code provider} and, for errors, {@code error}.
 * Decorate a provider once per caller, never twice: each layer would count the same call again.
 */
public final class MeteredCloudProvider implements CloudProvider {
  private final CloudProvider delegate;
  private final MeterRegistry meters;
  private final String controller;
  private final String provider;

  /**
   * @param controller who calls through this decorator ({@code nodeclaim}, {@code planning}, {@code gc}, ...)
   * @param provider   the configured cloud ({@code aws}, {@code simulated})
   */
  public MeteredCloudProvider(CloudProvider delegate, MeterRegistry meters, String controller, String provider) {
    this.delegate = delegate;
    this.meters = meters;
    this.controller = controller;
    this.provider = provider;
  }

  private <T> T measured(String method, Supplier<T> call) {
    long start = System.nanoTime();
    try {
      return call.get();
    } catch (RuntimeException e) {
      MetricCatalog.CLOUDPROVIDER_ERRORS.counter(meters, controller, method, provider, errorLabel(e)).increment();
      throw e;
    } finally {
      MetricCatalog.CLOUDPROVIDER_DURATION.timer(meters, controller, method, provider).record(Duration.ofNanos(System.nanoTime() - start));
    }
  }

  /** {@code InsufficientCapacityError}, {@code NotOwnedError}, ... for typed failures; the exception's class otherwise. */
  static String errorLabel(RuntimeException e) {
    return e instanceof CloudProviderException typed ? typed.kind().failureType + "Error" : e.getClass().getSimpleName();
  }

  @Override
  public Instance create(LaunchRequest request) {
    return measured("Create", () -> delegate.create(request));
  }

  @Override
  public Instance delete(String cluster, String nodeClaim, String instanceId) {
    return measured("Delete", () -> delegate.delete(cluster, nodeClaim, instanceId));
  }

  @Override
  public Optional<Instance> get(String instanceId) {
    return measured("Get", () -> delegate.get(instanceId));
  }

  @Override
  public List<Instance> list(String cluster) {
    return measured("List", () -> delegate.list(cluster));
  }

  @Override
  public List<InstanceType> instanceTypes() {
    return measured("GetInstanceTypes", delegate::instanceTypes);
  }

  @Override
  public List<Image> resolveImages(List<AmiSelectorTerm> terms) {
    return measured("ResolveImages", () -> delegate.resolveImages(terms));
  }

  @Override
  public List<Subnet> resolveSubnets(List<SubnetTerm> terms) {
    return measured("ResolveSubnets", () -> delegate.resolveSubnets(terms));
  }

  @Override
  public List<SecurityGroup> resolveSecurityGroups(List<SecurityGroupTerm> terms) {
    return measured("ResolveSecurityGroups", () -> delegate.resolveSecurityGroups(terms));
  }

  @Override
  public String resolveInstanceProfile(InstanceProfileRequest request) {
    return measured("ResolveInstanceProfile", () -> delegate.resolveInstanceProfile(request));
  }

  @Override
  public void markUnavailable(String instanceType, String zone, String capacityType, String reason) {
    measured("MarkUnavailable", () -> {
      delegate.markUnavailable(instanceType, zone, capacityType, reason);
      return null;
    });
  }

  @Override
  public List<CapacityReservation> resolveCapacityReservations(List<CapacityReservationTerm> terms) {
    return measured("DescribeCapacityReservations", () -> delegate.resolveCapacityReservations(terms));
  }
}
