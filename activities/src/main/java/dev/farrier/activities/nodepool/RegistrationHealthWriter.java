package dev.farrier.activities.nodepool;

import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.crd.NodePoolStatus;
import dev.farrier.activities.kube.ClusterReader;
import dev.farrier.activities.kube.StatusWriter;
import java.time.Clock;
import java.util.List;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a NodePool's {@code NodeRegistrationHealthy} as its launches register or fail ({@link RegistrationHealth}),
 * for the launch activities. A condition that does not change is not written; a pool gone is left alone.
 */
public final class RegistrationHealthWriter {
  private static final Logger log = LoggerFactory.getLogger(RegistrationHealthWriter.class);

  private final ClusterReader reader;
  private final StatusWriter status;
  private final Clock clock;
  private final RegistrationHealth health = new RegistrationHealth();

  public <C extends ClusterReader & StatusWriter> RegistrationHealthWriter(C cluster, Clock clock) {
    this.reader = cluster;
    this.status = cluster;
    this.clock = clock;
  }

  /** The claim's node registered. */
  public void registered(String nodePool, String claim) {
    write(nodePool, pool -> health.registered(pool, claim, clock.instant()));
  }

  /** The claim failed to launch ({@code launched} false) or its node to register. */
  public void failed(String nodePool, String claim, boolean launched, String reason, String message) {
    write(nodePool, pool -> health.failed(pool, claim, launched, reason, message, clock.instant()));
  }

  private void write(String nodePool, Function<NodePool, Condition> outcome) {
    if (nodePool == null) {
      return;
    }
    reader.getNodePool(nodePool).ifPresent(pool -> {
      Condition changed = outcome.apply(pool);
      if (changed != null) {
        status.patchNodePoolStatus(nodePool, new NodePoolStatus(null, null, List.of(changed)));
        log.atInfo().setMessage("nodepool registration health changed").addKeyValue("nodepool", nodePool)
            .addKeyValue("status", changed.status()).addKeyValue("reason", changed.reason()).log();
      }
    });
  }
}
