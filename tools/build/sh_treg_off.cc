// tools/build/sh_treg_off.cc - a GCC plugin the SH-4 build loads
// (-fplugin, kernel/arch/sh4/arch.mk) to switch off GCC's SH-only RTL pass
// sh_treg_combine (its instances sh_treg_combine2 and sh_treg_combine3).
//
// Debian 12's sh4-linux-gnu-gcc (GCC 12.2) takes a plain load of a pointer,
// (set (reg) (mem ...)), for a store of the inverted T bit, and then deletes
// the `tst` that a later conditional branch tests that register with: at -O1
// and above the branch reads a stale T bit.  Its dump
// (-fdump-rtl-sh_treg_combine2) shows it in console.c's send_queued: "inverted
// condition store" on the load of queue_head, then "removing test insn before
// cbranch".  -fdisable-rtl-sh_treg_combine2 cannot reach the pass: GCC reads
// -fdisable before the SH back end registers its passes, and answers "unknown
// pass".  A plugin's PLUGIN_OVERRIDE_GATE callback sees every pass as it is
// about to run, so it can answer "do not run" for these two; the other passes,
// sh_optimize_sett_clrt among them, run as usual.
//
// Built with the host's g++ against the cross compiler's plugin headers
// (Debian package gcc-12-plugin-dev-sh4-linux-gnu, `make deps`).

#include "gcc-plugin.h"
#include "plugin-version.h"
#include "tree-pass.h"

#include <string.h>

// GCC loads only plugins that declare this symbol.
int plugin_is_GPL_compatible;

static const char TREG_COMBINE[] = "sh_treg_combine";

// PLUGIN_OVERRIDE_GATE: gcc_data is the gate's answer for current_pass.
static void
gate_treg_combine (void *gcc_data, void *)
{
  bool *run = static_cast<bool *> (gcc_data);
  if (current_pass != NULL && current_pass->name != NULL
      && strncmp (current_pass->name, TREG_COMBINE, sizeof TREG_COMBINE - 1) == 0)
    *run = false;
}

int
plugin_init (struct plugin_name_args *info, struct plugin_gcc_version *version)
{
  // The headers' GCC must be the compiler that loads the plugin.
  if (!plugin_default_version_check (version, &gcc_version))
    return 1;
  register_callback (info->base_name, PLUGIN_OVERRIDE_GATE, gate_treg_combine, NULL);
  return 0;
}
