/**
 * The spot / on-demand split per workload ({@code farrier.dev/on-demand-min}): the leader's pass over gated pods
 * ({@link dev.farrier.activities.split.CapacitySplitter}) that applies {@link dev.farrier.planner.CapacitySplit}'s
 * decisions, and its pod writes ({@link dev.farrier.activities.split.Fabric8SplitWrites}): a pod's pin and gate (Events
 * go through the kube package's {@code EventSink}). Not an activity: a loop outside workflows runs it on the Lease holder.
 */
package dev.farrier.activities.split;
