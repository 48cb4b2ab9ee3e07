/**
 * Gauges read from the worker's informer cache at each scrape (cluster state, NodePools, nodes, pod startup): apart
 * from the catalog in {@code metrics}, which the cloud decorator and the activities record through, because these read
 * pods as the planners see them ({@code views}).
 */
package dev.farrier.activities.metrics.state;
