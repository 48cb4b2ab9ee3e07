/**
 * The Kubernetes seam: {@link dev.farrier.activities.kube.Cluster} lists every read and write Farrier makes, and
 * {@link dev.farrier.activities.kube.Fabric8Cluster} implements it with the fabric8 client. Activities depend on
 * the interface; integration tests run the implementation against a real kube-apiserver.
 */
package dev.farrier.activities.kube;
