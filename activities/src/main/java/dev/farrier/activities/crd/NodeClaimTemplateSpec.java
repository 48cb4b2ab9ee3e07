package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Taint;
import java.util.List;

/**
 * {@code spec.template.spec} of a NodePool: a NodeClaim spec without resource requests.
 *
 * @param expireAfter            a duration such as {@code 720h} or {@code Never}; the API server defaults it to 720h
 * @param terminationGracePeriod a duration such as {@code 48h}; null means drain waits for PDBs forever
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record NodeClaimTemplateSpec(
    List<RequirementWithMinValues> requirements,
    List<Taint> taints,
    List<Taint> startupTaints,
    NodeClassReference nodeClassRef,
    String expireAfter,
    String terminationGracePeriod) {
  public List<RequirementWithMinValues> requirementsOrEmpty() {
    return requirements == null ? List.of() : requirements;
  }

  public List<Taint> taintsOrEmpty() {
    return taints == null ? List.of() : taints;
  }

  public List<Taint> startupTaintsOrEmpty() {
    return startupTaints == null ? List.of() : startupTaints;
  }
}
