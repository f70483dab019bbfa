# Prints every link of an IBDM topology file as parsed by the IBDM library (the parser
# ibdiagnet and ibtopodiff use): "system port -- system port", one line per port end.
set f [new_IBFabric]
if {[IBFabric_parseTopology $f [lindex $argv 0]]} { puts stderr "PARSE-ERROR"; exit 1 }
foreach nameNode [IBFabric_NodeByName_get $f] {
  set node [lindex $nameNode 1]
  for {set pn 1} {$pn <= [IBNode_numPorts_get $node]} {incr pn} {
    set port [IBNode_getPort $node $pn]
    if {$port == ""} continue
    set rem [IBPort_p_remotePort_get $port]
    if {$rem == ""} continue
    set sp [IBPort_p_sysPort_get $port]
    set rsp [IBPort_p_sysPort_get $rem]
    puts "[IBSystem_name_get [IBSysPort_p_system_get $sp]] [IBSysPort_name_get $sp] -- [IBSystem_name_get [IBSysPort_p_system_get $rsp]] [IBSysPort_name_get $rsp]"
  }
}
exit 0
