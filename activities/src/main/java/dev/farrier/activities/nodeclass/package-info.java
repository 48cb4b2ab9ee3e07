/**
 * What an EC2NodeClass gives the use cases that read it: its images, its launch settings and kubelet, and the drift
 * facts a launch writes and planning reads back. Used by launch, provisioning, disruption, rollout and the status loop.
 */
package dev.farrier.activities.nodeclass;
