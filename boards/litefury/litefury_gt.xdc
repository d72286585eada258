# SPDX-License-Identifier: Apache-2.0
# LiteFury: transceiver sites of the AXI-PCIe bridge's lanes. The M.2 lanes
# reach the GTP quad in a board-specific order; these sites are the board's
# published assignment (IP lane -> GTPE2 channel). Processed EARLY (see
# build.tcl), like the board vendor's own projects. After the first synthesis,
# check that each get_cells finds one cell (Vivado warns on an empty match).
set_property LOC GTPE2_CHANNEL_X0Y7 [get_cells -hierarchical -filter {NAME =~ *axi_pcie_0*pipe_lane[3].gt_wrapper_i/gtp_channel.gtpe2_channel_i}]
set_property LOC GTPE2_CHANNEL_X0Y6 [get_cells -hierarchical -filter {NAME =~ *axi_pcie_0*pipe_lane[0].gt_wrapper_i/gtp_channel.gtpe2_channel_i}]
set_property LOC GTPE2_CHANNEL_X0Y5 [get_cells -hierarchical -filter {NAME =~ *axi_pcie_0*pipe_lane[2].gt_wrapper_i/gtp_channel.gtpe2_channel_i}]
set_property LOC GTPE2_CHANNEL_X0Y4 [get_cells -hierarchical -filter {NAME =~ *axi_pcie_0*pipe_lane[1].gt_wrapper_i/gtp_channel.gtpe2_channel_i}]
