package dev.farrier.worker.config;

import dev.farrier.model.LaunchSettings;
import dev.farrier.model.ReconcilerSettings;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/** Reads {@link WorkerSettings} from Micronaut's configuration; defaults live in application.yml. */
@Factory
public class SettingsFactory {
  @Singleton
  WorkerSettings settings(
      @Value("${farrier.cluster-name}") String clusterName,
      @Value("${farrier.temporal.address}") String temporalAddress,
      @Value("${farrier.temporal.namespace}") String temporalNamespace,
      @Value("${farrier.temporal.task-queue}") String taskQueue,
      @Value("${farrier.kubeconfig:}") String kubeconfig,
      @Value("${farrier.cloud}") String cloud,
      @Value("${farrier.region}") String region,
      @Value("${farrier.aws.endpoint:}") String awsEndpoint,
      @Value("${farrier.aws.access-key-id:}") String awsAccessKeyId,
      @Value("${farrier.aws.secret-access-key:}") String awsSecretAccessKey,
      @Value("${farrier.aws.cluster-endpoint:}") String clusterEndpoint,
      @Value("${farrier.aws.cluster-ca-bundle:}") String clusterCaBundle,
      @Value("${farrier.aws.service-cidr:}") String serviceCidr,
      @Value("${farrier.aws.ssm-parameter-root}") String ssmParameterRoot,
      @Value("${farrier.aws.on-demand-prices-file:}") String onDemandPricesFile,
      @Value("${farrier.aws.catalogue-refresh}") Duration catalogueRefresh,
      @Value("${farrier.gc.interval}") Duration gcInterval,
      @Value("${farrier.gc.grace}") Duration gcGrace,
      @Value("${farrier.gc.confirm-after}") Duration gcConfirmAfter,
      @Value("${farrier.gc.max-gone-share}") double gcMaxGoneShare,
      @Value("${farrier.reconciler.batch-idle}") Duration batchIdle,
      @Value("${farrier.reconciler.batch-max}") Duration batchMax,
      @Value("${farrier.reconciler.disruption-interval}") Duration disruptionInterval,
      @Value("${farrier.launch.registration-timeout}") Duration registrationTimeout,
      @Value("${farrier.launch.initialization-timeout}") Duration initializationTimeout,
      @Value("${farrier.drain.poll}") Duration drainPoll,
      @Value("${farrier.drain.poll-max}") Duration drainPollMax,
      @Value("${farrier.interruption.queue:}") String interruptionQueue,
      @Value("${farrier.feature-gates.node-repair}") boolean nodeRepair) {
    var reconciler = new ReconcilerSettings(
        batchIdle.toMillis(), batchMax.toMillis(), disruptionInterval.toMillis(),
        new LaunchSettings(registrationTimeout.toSeconds(), initializationTimeout.toSeconds()),
        Math.max(1, drainPoll.toSeconds()), Math.max(1, drainPollMax.toSeconds()), nodeRepair);
    var aws = new WorkerSettings.AwsSettings(awsEndpoint.isBlank() ? null : URI.create(awsEndpoint), blankToNull(awsAccessKeyId),
        blankToNull(awsSecretAccessKey), clusterEndpoint, clusterCaBundle, serviceCidr, ssmParameterRoot,
        onDemandPricesFile.isBlank() ? null : Path.of(onDemandPricesFile), catalogueRefresh);
    return new WorkerSettings(clusterName, temporalAddress, temporalNamespace, taskQueue,
        kubeconfig.isBlank() ? null : Path.of(kubeconfig), cloud, region, aws, new WorkerSettings.GcSettings(gcInterval, gcGrace, gcConfirmAfter, gcMaxGoneShare),
        reconciler, blankToNull(interruptionQueue));
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }

  @Singleton
  LeaderElectionSettings leaderElection(
      @Value("${farrier.leader-election.enabled}") boolean enabled,
      @Value("${farrier.leader-election.namespace:}") String namespace,
      @Value("${farrier.leader-election.name}") String name,
      @Value("${farrier.leader-election.identity:}") String identity,
      @Value("${farrier.leader-election.lease-duration}") Duration leaseDuration,
      @Value("${farrier.leader-election.renew-deadline}") Duration renewDeadline,
      @Value("${farrier.leader-election.retry-period}") Duration retryPeriod) {
    return new LeaderElectionSettings(enabled, blankToNull(namespace), name, blankToNull(identity), leaseDuration, renewDeadline, retryPeriod);
  }
}
