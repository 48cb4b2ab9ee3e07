package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/** {@code spec.cpuOptions}: {@code nestedVirtualization} {@code enabled} or {@code disabled} (null = EC2's default). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record CpuOptions(String nestedVirtualization) {}
