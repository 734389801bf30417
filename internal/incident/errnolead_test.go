package incident_test

import "testing"

// A native library's error line says which call failed (UCX's
// "ibv_reg_mr(...) failed: Bad address", "mlx5dv_devx_obj_create(QP)
// failed ..."); Open MPI's line after it reports the same failure by the
// error number the OS answered ("ucx send failed: Input/output error"),
// which a record of an errno's words reads. With no record for the native
// line (left out of the catalog), that line still leads, and the errno
// record's line is listed in its incident. The errno line alone, or
// printed before the native line, keeps its record's lead.
func TestANativeLineLeadsTheErrnoRecordAfterIt(t *testing.T) {
	m := matcherWithout(t, "ucx-memory-registration-failed", "nixl-ucx-backend-create-failed")
	for _, c := range []struct {
		lines []string
		says  string
	}{
		{[]string{
			"[1647516906.396315] [node-rtx3080:82049:0]           ib_md.c:349  UCX  ERROR ibv_reg_mr(address=0x7f724fa00000, length=4096, access=0xf) failed: Bad address",
			"[node-rtx3080.local:82049] pml_ucx.c:860  Error: ucx send failed: Input/output error",
		}, "ibv_reg_mr(address=0x7f724fa00000"},
		{[]string{
			"1737742661.094513] [cn0244:260472:0]      ib_mlx5_dv.c:430  UCX  ERROR   mlx5dv_devx_obj_create(QP) failed on mlx5_0, syndrome 0x2c4154: Remote I/O error",
			"[cn0244:260472] pml_ucx.c:421  Error: ucp_ep_create(proc=47) failed: Input/output error",
		}, "mlx5dv_devx_obj_create(QP) failed"},
	} {
		got := scanLines(t, m, c.lines)
		if len(got) != 1 || got[0].Record.ID != "" || !leadsWith(got[0], c.says) || len(got[0].Consequences) == 0 {
			t.Errorf("%s: want one incident led by the native line with the errno record listed, got %d:%s", c.says, len(got), describe(got))
		}
		if alone := scanLines(t, m, c.lines[1:]); len(alone) != 1 || alone[0].Record.Slug != "os-input-output-error" {
			t.Errorf("%q alone: want its record leading, got %d:%s", c.lines[1], len(alone), describe(alone))
		}
		if got := scanLines(t, m, []string{c.lines[1], c.lines[0]}); len(got) == 0 || got[0].Record.Slug != "os-input-output-error" {
			t.Errorf("%q before the native line: want its record leading, got %d:%s", c.lines[1], len(got), describe(got))
		}
	}
}
