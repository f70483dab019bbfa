# Writes a fabric of N leaves declared one by one, each with a single uplink (W0103 at N
# places): tests/lit/diag/fold-past-limit.fab.
import sys

n = int(sys.argv[1])
print('model SW : switch {\n  sku = "SW-64"; vendor = "Test"; power = 500 W; latency = 100 ns; rack_units = 1;\n'
      '  port p[64] { speed = 400 Gb/s; lanes = 4; form = "DAC"; }\n}\n'
      'model DAC1 : cable { sku = "DAC-1"; media = "DAC"; speed = 400 Gb/s; form = "DAC"; reach = 30 m; }\n'
      'fabric g {\n  spine : SW { tier = "spine"; };')
for i in range(n):
    print(f'  l{i} : SW {{ tier = "leaf"; }};\n  link l{i} -- spine {{ length = 2 m; }};')
print('}')
