# Prints an IBDM topology file, as the IBDM library (the parser ibdiagnet and ibtopodiff
# use) parses it, in ibnetdiscover's format, so that `fabc verify` compares IBDM's view
# with the design: a node record per switch and per HCA port, named as fabc names them
# ("su0-leaf0"; "su0-node0 cx0", the system and its panel port), with made-up GUIDs.
set f [new_IBFabric]
if {[IBFabric_parseTopology $f [lindex $argv 0]]} { puts stderr "PARSE-ERROR"; exit 1 }
set nodes {}
foreach nameNode [IBFabric_NodeByName_get $f] { lappend nodes [lindex $nameNode 1] }
set i 0
foreach node $nodes { incr i; set id($node) $i }
# IBDM: 1 is a CA, 2 a switch.
proc isSwitch {node} { return [expr {[IBNode_type_get $node] == 2}] }
proc nodeId {node} {
  global id
  return [format "%s-%016x" [expr {[isSwitch $node] ? "S" : "H"}] $id($node)]
}
proc desc {node} {
  set sys [IBSystem_name_get [IBNode_p_system_get $node]]
  if {[isSwitch $node]} { return $sys }
  # An HCA: its one port's panel name.
  for {set pn 1} {$pn <= [IBNode_numPorts_get $node]} {incr pn} {
    set port [IBNode_getPort $node $pn]
    if {$port != ""} { return "$sys [IBSysPort_name_get [IBPort_p_sysPort_get $port]]" }
  }
  return $sys
}
foreach node $nodes {
  puts "[expr {[isSwitch $node] ? "Switch" : "Ca"}]\t[IBNode_numPorts_get $node] \"[nodeId $node]\"\t\t# \"[desc $node]\""
  for {set pn 1} {$pn <= [IBNode_numPorts_get $node]} {incr pn} {
    set port [IBNode_getPort $node $pn]
    if {$port == ""} continue
    set rem [IBPort_p_remotePort_get $port]
    if {$rem == ""} continue
    set rn [IBPort_p_node_get $rem]
    puts "\[$pn\]\t\"[nodeId $rn]\"\[[IBPort_num_get $rem]\]\t\t# \"[desc $rn]\""
  }
  puts ""
}
exit 0
