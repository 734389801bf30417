package source

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParsePodPath(t *testing.T) {
	const id = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	tests := []struct {
		name string
		path string
		want Pod
		ok   bool
	}{
		{"pods dir", "/var/log/pods/infer_sglang-0_6f1c-11ee/server/0.log",
			Pod{Namespace: "infer", Name: "sglang-0", UID: "6f1c-11ee", Container: "server"}, true},
		{"pods dir rotated by kubelet", "/host/var/log/pods/infer_sglang-0_uid/server/3.log.20261129-100000",
			Pod{Namespace: "infer", Name: "sglang-0", UID: "uid", Container: "server"}, true},
		{"containers symlink", "/var/log/containers/sglang-0_infer_server-" + id + ".log",
			Pod{Namespace: "infer", Name: "sglang-0", Container: "server", ContainerID: id}, true},
		{"container name with dashes", "/var/log/containers/web-7d9_default_log-shipper-abc123.log",
			Pod{Namespace: "default", Name: "web-7d9", Container: "log-shipper", ContainerID: "abc123"}, true},
		{"relative pods path", "pods/a_b_c/d/1.log", Pod{Namespace: "a", Name: "b", UID: "c", Container: "d"}, true},
		{"plain file", "/var/log/sglang/server.log", Pod{}, false},
		{"pods dir with two fields", "/var/log/pods/infer_sglang/server/0.log", Pod{}, false},
		{"pods dir, not a restart file", "/var/log/pods/a_b_c/d/x.log", Pod{}, false},
		{"pods dir, bare .log. suffix", "/var/log/pods/a_b_c/d/0.log.", Pod{}, false},
		{"containers without id", "/var/log/containers/a_b_c.log", Pod{}, false},
		{"containers with upper-case id", "/var/log/containers/a_b_c-ABC.log", Pod{}, false},
		{"containers not a log", "/var/log/containers/a_b_c-abc.txt", Pod{}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := ParsePodPath(tc.path)
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v", ok, tc.ok)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("pod (-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzParsePodPath(f *testing.F) {
	f.Add("/var/log/pods/infer_sglang-0_6f1c/server/0.log")
	f.Add("/var/log/pods/a_b_c/d/12.log.20261129-100000.gz")
	f.Add("/var/log/containers/sglang-0_infer_server-0123abcd.log")
	f.Add("pods/_b_c/d/0.log")
	f.Add("containers/a_b_-1.log")
	f.Fuzz(func(t *testing.T, path string) {
		p, ok := ParsePodPath(path)
		if !ok {
			if !p.IsZero() {
				t.Fatalf("not ok but %+v", p)
			}
			return
		}
		if p.Namespace == "" || p.Name == "" || p.Container == "" || (p.UID == "") == (p.ContainerID == "") {
			t.Fatalf("incomplete identity %+v from %q", p, path)
		}
		for _, s := range []string{p.Namespace, p.Name, p.UID, p.Container, p.ContainerID} {
			if strings.Contains(s, "/") {
				t.Fatalf("field %q of %q holds a separator", s, path)
			}
		}
		// The identity survives a round trip through its canonical path.
		var canon string
		if p.UID != "" {
			canon = "/var/log/pods/" + p.Namespace + "_" + p.Name + "_" + p.UID + "/" + p.Container + "/0.log"
		} else {
			canon = "/var/log/containers/" + p.Name + "_" + p.Namespace + "_" + p.Container + "-" + p.ContainerID + ".log"
		}
		again, ok := ParsePodPath(canon)
		if !ok || again != p {
			t.Fatalf("round trip of %q through %q gave %+v, %v", path, canon, again, ok)
		}
	})
}
