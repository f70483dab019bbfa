#pragma once
// The command line driver: everything tools/fabc/main.cpp does.
namespace fabc {
int driverMain(int argc, char **argv);
}
