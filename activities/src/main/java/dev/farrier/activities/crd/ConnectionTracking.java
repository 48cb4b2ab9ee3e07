package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * {@code spec.connectionTracking}: idle connection tracking timeouts, in seconds, of the primary network interface
 * (EC2's {@code ConnectionTrackingSpecification}); an unset one is EC2's default. The CRD requires at least one.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ConnectionTracking(Integer tcpEstablishedTimeout, Integer udpStreamTimeout, Integer udpTimeout) {}
