/**
 * The pure decision functions behind {@code PlanningActivities}: no Temporal, no I/O, no clock. An activity reads
 * the cluster and the cloud into snapshot records and calls a planner; the same snapshot always gives the same plan.
 *
 * <ul>
 *   <li>{@link dev.farrier.planner.ProvisioningPlanner}: {@link dev.farrier.planner.ProvisioningSnapshot}
 *       (pending {@link dev.farrier.planner.PodSpecView}s with their spread, pod affinity and volume
 *       requirements, {@link dev.farrier.planner.ExistingNodeView}s (nodes and in-flight claims),
 *       {@link dev.farrier.planner.NodePoolView}s, {@link dev.farrier.planner.InstanceTypeView}s
 *       and {@link dev.farrier.planner.KubeletSettings} per pool, DaemonSet pods) to a {@code ProvisioningPlan}
 *       (pods on existing capacity, new claims, unschedulable pods with reasons);
 *       and {@link dev.farrier.planner.ReplacementSnapshot} to a {@code ReplacementPlan}.</li>
 *   <li>{@link dev.farrier.planner.DisruptionPlanner}: {@link dev.farrier.planner.DisruptionSnapshot}
 *       ({@link dev.farrier.planner.NodeClaimView}s, pools, {@link dev.farrier.planner.ResolvedImages},
 *       now) to a {@code DisruptionPlan}; {@link dev.farrier.planner.DisruptionConditions}: the same snapshot
 *       to the {@link dev.farrier.planner.ClaimConditions} (Drifted, Expired) each NodeClaim should carry.</li>
 * </ul>
 * Label matching lives in {@code Requirements}/{@code LabelConstraint}, node sizing in {@code KubeletReserve},
 * budgets in {@code BudgetCheck}, drift in {@code DriftCheck}, expiry in {@code Expiry}.
 */
package dev.farrier.planner;
