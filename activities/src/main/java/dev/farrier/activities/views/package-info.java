/**
 * What several use cases read alike from Kubernetes objects, as the planners see them: pods and their topology
 * ({@link dev.farrier.activities.views.PodViews}), resource quantities, provider ids. Depends on no use-case package.
 */
package dev.farrier.activities.views;
