//go:build test_performance

// Farrier's side of `make bench-peer` (tools/bench-peer.sh), not part of Karpenter: the script copies this file into
// its own copy of Karpenter's scheduling package, next to scheduling_benchmark_test.go, whose helpers it calls.
// Karpenter's benchmark reports speed and node count only. This test plans the same pods once more, with the
// benchmark's own setup, and writes what a like-for-like comparison needs: the pods themselves (so Farrier plans the
// very same requests) and each new NodeClaim's cheapest launch offering (so both plans are priced the same way).
//
// The benchmark's random source is seeded with 42 when the process starts, so in a fresh process makeDiversePods(n)
// here draws exactly the pods BenchmarkScheduling<n> draws in its own. Pod UIDs are random and Karpenter orders pods
// of equal requests by UID, so this plan may differ from the benchmark's by a few nodes; both counts are reported.

package scheduling_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/controllers/provisioning/scheduling"
	"sigs.k8s.io/karpenter/pkg/operator/injection"
	"sigs.k8s.io/karpenter/pkg/operator/options"
	"sigs.k8s.io/karpenter/pkg/test"
)

// TestFarrierPeer plans FARRIER_PEER_PODS diverse pods and writes karpenter-<n>-pods.tsv and karpenter-<n>-claims.tsv
// into FARRIER_PEER_OUT.
func TestFarrierPeer(t *testing.T) {
	size, err := strconv.Atoi(os.Getenv("FARRIER_PEER_PODS"))
	if err != nil || size <= 0 {
		t.Skip("FARRIER_PEER_PODS is not set to a pod count")
	}
	dir := os.Getenv("FARRIER_PEER_OUT")
	pods := makeDiversePods(size)
	// Written before Solve, which sorts the slice it is given.
	if err := writeLines(filepath.Join(dir, fmt.Sprintf("karpenter-%d-pods.tsv", size)), podLines(t, pods)); err != nil {
		t.Fatal(err)
	}
	ctx = options.ToContext(injection.WithControllerName(context.Background(), "provisioner"), test.Options())
	scheduler, err := setupScheduler(ctx, pods, scheduling.NumConcurrentReconciles(5))
	if err != nil {
		t.Fatalf("creating scheduler, %s", err)
	}
	results, err := scheduler.Solve(ctx, pods)
	if err != nil {
		t.Fatalf("solving, %s", err)
	}
	if len(results.PodErrors) > 0 {
		t.Fatalf("%d pods did not schedule", len(results.PodErrors))
	}
	lines := []string{"# pods\tinstance-type\tzone\tcapacity-type\tprice"}
	for _, nc := range results.NewNodeClaims {
		name, offering := cheapestOffering(nc)
		if offering == nil {
			t.Fatalf("a NodeClaim of %d pods has no offering it may launch as", len(nc.Pods))
		}
		lines = append(lines, fmt.Sprintf("%d\t%s\t%s\t%s\t%s", len(nc.Pods), name, offering.Zone(), offering.CapacityType(),
			strconv.FormatFloat(offering.Price, 'g', -1, 64)))
	}
	if err := writeLines(filepath.Join(dir, fmt.Sprintf("karpenter-%d-claims.tsv", size)), lines); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("farrier-peer: %d pods, %d new NodeClaims\n", size, len(results.NewNodeClaims))
}

// cheapestOffering is what Farrier's benchmark prices a claim at: the cheapest available offering of any instance
// type the claim lists, in a zone and capacity type its requirements allow.
func cheapestOffering(nc *scheduling.NodeClaim) (string, *cloudprovider.Offering) {
	var best *cloudprovider.Offering
	name := ""
	for _, it := range nc.InstanceTypeOptions {
		for _, o := range it.Offerings.Available().Compatible(nc.Requirements) {
			if best == nil || o.Price < best.Price {
				best, name = o, it.Name
			}
		}
	}
	return name, best
}

// podLines: one pod a line, name, millicores, memory bytes, labels, then its one constraint (kind, topology key,
// selector) or "none". A pod of any other shape fails the run rather than being described wrongly.
func podLines(t *testing.T, pods []*corev1.Pod) []string {
	lines := []string{"# name\tmilli-cpu\tmemory-bytes\tlabels\tconstraint\ttopology-key\tselector"}
	for _, p := range pods {
		var cpu, memory int64
		for _, c := range p.Spec.Containers {
			cpu += c.Resources.Requests.Cpu().MilliValue()
			memory += c.Resources.Requests.Memory().Value()
		}
		kind, key, selector := "none", "-", map[string]string{}
		constraints := 0
		for _, s := range p.Spec.TopologySpreadConstraints {
			kind, key, selector = "spread", s.TopologyKey, s.LabelSelector.MatchLabels
			constraints++
		}
		if a := p.Spec.Affinity; a != nil {
			if a.PodAffinity != nil {
				for _, term := range a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution {
					kind, key, selector = "affinity", term.TopologyKey, term.LabelSelector.MatchLabels
					constraints++
				}
			}
			if a.PodAntiAffinity != nil {
				for _, term := range a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution {
					kind, key, selector = "anti-affinity", term.TopologyKey, term.LabelSelector.MatchLabels
					constraints++
				}
			}
			if a.NodeAffinity != nil || (a.PodAffinity != nil && len(a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution) > 0) ||
				(a.PodAntiAffinity != nil && len(a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution) > 0) {
				constraints = 2
			}
		}
		if constraints > 1 || len(p.Spec.NodeSelector) > 0 || len(p.Spec.Tolerations) > 0 || len(p.Spec.InitContainers) > 0 {
			t.Fatalf("pod %s has a shape the pod list cannot describe", p.Name)
		}
		lines = append(lines, strings.Join([]string{p.Name, strconv.FormatInt(cpu, 10), strconv.FormatInt(memory, 10),
			joined(p.Labels), kind, key, joined(selector)}, "\t"))
	}
	return lines
}

func joined(labels map[string]string) string {
	if len(labels) == 0 {
		return "-"
	}
	pairs := make([]string, 0, len(labels))
	for k, v := range labels {
		pairs = append(pairs, k+"="+v)
	}
	sort.Strings(pairs)
	return strings.Join(pairs, ",")
}

func writeLines(path string, lines []string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
