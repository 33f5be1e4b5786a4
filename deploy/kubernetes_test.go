// Package deploy holds the tests of what the deploy/ directory ships: the
// systemd unit and the Kubernetes manifests (it has no code of its own).
package deploy

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/wardenhq/warden/server"
)

// The daemon's health and readiness paths (DAEMON-API.md; TestProbePaths
// checks the server registers them).
const (
	healthPath = "/healthz"
	readyPath  = "/readyz"
)

func TestProbePaths(t *testing.T) {
	for _, p := range []string{healthPath, readyPath} {
		if !slices.ContainsFunc(server.Routes, func(r server.Route) bool { _, get := r.Methods["GET"]; return r.Pattern == p && get }) {
			t.Errorf("the server registers no GET %s", p)
		}
	}
}

// object is one manifest, as far as the test reads it.
type object struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct {
		Name   string            `yaml:"name"`
		Labels map[string]string `yaml:"labels"`
	} `yaml:"metadata"`
	Spec       yaml.Node         `yaml:"spec"`
	Data       map[string]string `yaml:"data"`
	StringData map[string]string `yaml:"stringData"`
}

type probe struct {
	HTTPGet struct {
		Path string `yaml:"path"`
		Port any    `yaml:"port"`
	} `yaml:"httpGet"`
}

type container struct {
	Name  string   `yaml:"name"`
	Image string   `yaml:"image"`
	Args  []string `yaml:"args"`
	Ports []struct {
		Name          string `yaml:"name"`
		ContainerPort int    `yaml:"containerPort"`
	} `yaml:"ports"`
	LivenessProbe   probe `yaml:"livenessProbe"`
	ReadinessProbe  probe `yaml:"readinessProbe"`
	SecurityContext struct {
		Privileged *bool `yaml:"privileged"`
	} `yaml:"securityContext"`
	VolumeMounts []struct {
		Name      string `yaml:"name"`
		MountPath string `yaml:"mountPath"`
	} `yaml:"volumeMounts"`
}

type deploymentSpec struct {
	Selector struct {
		MatchLabels map[string]string `yaml:"matchLabels"`
	} `yaml:"selector"`
	Template struct {
		Metadata struct {
			Labels map[string]string `yaml:"labels"`
		} `yaml:"metadata"`
		Spec struct {
			TerminationGracePeriodSeconds int `yaml:"terminationGracePeriodSeconds"`
			SecurityContext               struct {
				RunAsUser *int `yaml:"runAsUser"`
			} `yaml:"securityContext"`
			Containers []container `yaml:"containers"`
			Volumes    []struct {
				Name      string `yaml:"name"`
				ConfigMap struct {
					Name string `yaml:"name"`
				} `yaml:"configMap"`
				Secret struct {
					SecretName string `yaml:"secretName"`
				} `yaml:"secret"`
			} `yaml:"volumes"`
		} `yaml:"spec"`
	} `yaml:"template"`
}

// readManifests parses every document of every .yaml file in
// deploy/kubernetes, by kind.
func readManifests(t *testing.T) map[string]object {
	t.Helper()
	files, _ := filepath.Glob("kubernetes/*.yaml")
	if len(files) == 0 {
		t.Fatal("no manifests in deploy/kubernetes")
	}
	byKind := map[string]object{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(b))
		for {
			var o object
			err := dec.Decode(&o)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if o.APIVersion == "" || o.Kind == "" || o.Metadata.Name == "" {
				t.Errorf("%s: a document without apiVersion, kind or metadata.name", f)
			}
			if _, dup := byKind[o.Kind]; dup {
				t.Errorf("%s: a second %s", f, o.Kind)
			}
			byKind[o.Kind] = o
		}
	}
	for _, k := range []string{"Deployment", "Service", "ConfigMap", "Secret", "PodDisruptionBudget", "HorizontalPodAutoscaler"} {
		if _, ok := byKind[k]; !ok {
			t.Errorf("no %s among the manifests", k)
		}
	}
	return byKind
}

func decodeSpec[T any](t *testing.T, o object) T {
	t.Helper()
	var v T
	if err := o.Spec.Decode(&v); err != nil {
		t.Fatalf("%s spec: %v", o.Kind, err)
	}
	return v
}

// imageTag is what `make image` prints (build/image -print-tag).
func imageTag(t *testing.T) string {
	t.Helper()
	cmd := exec.Command("go", "run", "./build/image", "-print-tag")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go run ./build/image -print-tag: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// TestManifests parses every manifest and checks that they fit together
// and fit the daemon: the image is the one `make image` tags, the
// probes ask the daemon's health and readiness paths on the port its
// --listen flag opens, the Service reaches that port with client-IP
// affinity (DAEMON-API.md, "Replicas"), the selectors select the
// Deployment's pods, the config and tokens files the daemon is pointed
// at are where the volumes put them, and the pod outlives the drain.
func TestManifests(t *testing.T) {
	m := readManifests(t)
	dep := decodeSpec[deploymentSpec](t, m["Deployment"])
	pod := dep.Template.Spec
	if len(pod.Containers) != 1 {
		t.Fatalf("want one container, got %d", len(pod.Containers))
	}
	c := pod.Containers[0]
	labels := dep.Template.Metadata.Labels
	if !subset(dep.Selector.MatchLabels, labels) || len(dep.Selector.MatchLabels) == 0 {
		t.Errorf("the Deployment's selector %v does not select its pods %v", dep.Selector.MatchLabels, labels)
	}

	if tag := imageTag(t); c.Image != tag {
		t.Errorf("image %q, but make image tags %q", c.Image, tag)
	}

	// The port the daemon listens on, from its --listen flag.
	listen := flagValue(c.Args, "--listen")
	_, portStr, err := net.SplitHostPort(listen)
	if err != nil {
		t.Fatalf("--listen %q: %v", listen, err)
	}
	if host, _, _ := net.SplitHostPort(listen); host != "0.0.0.0" && host != "" {
		t.Errorf("--listen %q: the Service cannot reach a pod listening on %s", listen, host)
	}
	port, _ := strconv.Atoi(portStr)
	ports := map[string]int{}
	for _, p := range c.Ports {
		ports[p.Name] = p.ContainerPort
	}
	if ports["http"] != port {
		t.Errorf("containerPort http %d, but the daemon listens on %d", ports["http"], port)
	}
	resolve := func(v any) int {
		switch v := v.(type) {
		case int:
			return v
		case string:
			return ports[v]
		}
		return 0
	}
	for _, p := range []struct {
		what string
		pr   probe
		path string
	}{{"liveness", c.LivenessProbe, healthPath}, {"readiness", c.ReadinessProbe, readyPath}} {
		if p.pr.HTTPGet.Path != p.path || resolve(p.pr.HTTPGet.Port) != port {
			t.Errorf("%s probe: GET %s on port %v, want %s on %d", p.what, p.pr.HTTPGet.Path, p.pr.HTTPGet.Port, p.path, port)
		}
	}

	svc := decodeSpec[struct {
		Selector        map[string]string `yaml:"selector"`
		SessionAffinity string            `yaml:"sessionAffinity"`
		Ports           []struct {
			TargetPort any `yaml:"targetPort"`
		} `yaml:"ports"`
	}](t, m["Service"])
	if svc.SessionAffinity != "ClientIP" || !subset(svc.Selector, labels) || len(svc.Ports) != 1 || resolve(svc.Ports[0].TargetPort) != port {
		t.Errorf("Service: %+v (pods %v, port %d)", svc, labels, port)
	}

	type selected struct {
		Selector struct {
			MatchLabels map[string]string `yaml:"matchLabels"`
		} `yaml:"selector"`
	}
	if pdb := decodeSpec[selected](t, m["PodDisruptionBudget"]); !subset(pdb.Selector.MatchLabels, labels) || len(pdb.Selector.MatchLabels) == 0 {
		t.Errorf("the PodDisruptionBudget selects %v, not the pods %v", pdb.Selector.MatchLabels, labels)
	}
	hpa := decodeSpec[struct {
		ScaleTargetRef struct{ Kind, Name string } `yaml:"scaleTargetRef"`
		Metrics        []struct {
			Resource struct{ Name string } `yaml:"resource"`
		} `yaml:"metrics"`
	}](t, m["HorizontalPodAutoscaler"])
	if hpa.ScaleTargetRef.Kind != "Deployment" || hpa.ScaleTargetRef.Name != m["Deployment"].Metadata.Name || len(hpa.Metrics) != 1 || hpa.Metrics[0].Resource.Name != "cpu" {
		t.Errorf("HorizontalPodAutoscaler: %+v", hpa)
	}

	// The config file the daemon reads comes from the ConfigMap, and the
	// tokens file it names from the Secret.
	mounts := map[string]string{} // mount path -> ConfigMap or Secret name
	for _, vm := range c.VolumeMounts {
		for _, v := range pod.Volumes {
			if v.Name == vm.Name {
				mounts[vm.MountPath] = v.ConfigMap.Name + v.Secret.SecretName
			}
		}
	}
	cfgPath := flagValue(c.Args, "--config")
	cm := m["ConfigMap"]
	if mounts[filepath.Dir(cfgPath)] != cm.Metadata.Name || cm.Data[filepath.Base(cfgPath)] == "" {
		t.Fatalf("--config %s is not a key of the ConfigMap %s mounted at its directory (mounts %v)", cfgPath, cm.Metadata.Name, mounts)
	}
	var cfg struct {
		TokensFile   string `yaml:"tokens_file"`
		DrainTimeout string `yaml:"drain_timeout"`
	}
	if err := yaml.Unmarshal([]byte(cm.Data[filepath.Base(cfgPath)]), &cfg); err != nil {
		t.Fatalf("the ConfigMap's config: %v", err)
	}
	sec := m["Secret"]
	if mounts[filepath.Dir(cfg.TokensFile)] != sec.Metadata.Name || sec.StringData[filepath.Base(cfg.TokensFile)] == "" {
		t.Errorf("tokens_file %s is not a key of the Secret %s mounted at its directory (mounts %v)", cfg.TokensFile, sec.Metadata.Name, mounts)
	}
	line := regexp.MustCompile(`^[A-Za-z0-9_.-]+ [0-9a-f]{64}$`)
	for _, l := range strings.Split(sec.StringData[filepath.Base(cfg.TokensFile)], "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") && !line.MatchString(l) {
			t.Errorf("tokens line %q: want TENANT SHA256-HEX", l)
		}
	}
	drain, err := time.ParseDuration(cfg.DrainTimeout)
	if err != nil || time.Duration(pod.TerminationGracePeriodSeconds)*time.Second <= drain {
		t.Errorf("terminationGracePeriodSeconds %d must exceed drain_timeout %q (%v)", pod.TerminationGracePeriodSeconds, cfg.DrainTimeout, err)
	}

	// The daemon runs as root (the image's user; see build/image.User)
	// and privileged (see the Deployment's comments).
	if pod.SecurityContext.RunAsUser == nil || *pod.SecurityContext.RunAsUser != 0 || c.SecurityContext.Privileged == nil || !*c.SecurityContext.Privileged {
		t.Errorf("securityContext: runAsUser %v, privileged %v", pod.SecurityContext.RunAsUser, c.SecurityContext.Privileged)
	}
}

// subset reports whether every label of sel is in labels.
func subset(sel, labels map[string]string) bool {
	for k, v := range sel {
		if labels[k] != v {
			return false
		}
	}
	return true
}

// flagValue is the value after flag in args ("--flag value" or
// "--flag=value").
func flagValue(args []string, flag string) string {
	for i, a := range args {
		if a == flag && i+1 < len(args) {
			return args[i+1]
		}
		if v, ok := strings.CutPrefix(a, flag+"="); ok {
			return v
		}
	}
	return ""
}
