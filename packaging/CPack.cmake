# The Debian package (`cpack -G DEB` in the build directory): what `cmake --install`
# installs, under /usr: the binary, the stdlib (share/fabc/stdlib), the man page, the bash
# and zsh completions, LICENSE, the third-party notices and a machine-readable copyright
# file. dpkg-shlibdeps computes Depends from the libraries the binary links.
# tests/lit/packaging/deb.test builds it, unpacks it with dpkg -x and runs it from there.
set(FABC_PACKAGE_MAINTAINER "fabc maintainers <fabc@maintainers.invalid>" CACHE STRING
    "The Maintainer field of the Debian package")

set(CPACK_PACKAGE_NAME fabc)
set(CPACK_PACKAGE_VENDOR "fabc")
# Debian's synopsis: under 80 characters, no leading article; the extended lines under 80
# (lintian's synopsis-too-long, description-synopsis-starts-with-article and
# extended-description-line-too-long; tests/lit/packaging/lintian.test).
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "compiler for GPU cluster network fabric designs")
set(CPACK_PACKAGE_DESCRIPTION
    "fabc compiles GPU cluster network designs written in the Fabric language\n"
    "(.fab): it checks them with clang-style diagnostics and writes their cabling\n"
    "plan, bill of materials, energy budget, switch configurations (SONiC, FRR,\n"
    "NVUE), InfiniBand and Slurm topology files.")
string(REPLACE ";" "" CPACK_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}")
set(CPACK_PACKAGE_CONTACT "${FABC_PACKAGE_MAINTAINER}")
set(CPACK_RESOURCE_FILE_LICENSE "${CMAKE_SOURCE_DIR}/LICENSE")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # fabc_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${FABC_PACKAGE_MAINTAINER}")
# The package's files are owned by root whoever builds it.
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

# Debian's copyright file (DEP-5), in share/doc/fabc with LICENSE and the notices.
install(FILES ${CMAKE_SOURCE_DIR}/packaging/debian/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})
# Debian's changelog (lintian's no-changelog error without it): a native package's is
# share/doc/fabc/changelog.gz, compressed with -9 -n (no name or time: reproducible).
set(FABC_DEB_CHANGELOG ${CMAKE_BINARY_DIR}/packaging/changelog.gz)
add_custom_command(
  OUTPUT ${FABC_DEB_CHANGELOG}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/packaging
  COMMAND sh -c "gzip -9n -c \"$1\" > \"$2\"" sh ${CMAKE_SOURCE_DIR}/packaging/debian/changelog ${FABC_DEB_CHANGELOG}
  DEPENDS ${CMAKE_SOURCE_DIR}/packaging/debian/changelog
  VERBATIM)
add_custom_target(fabc_changelog ALL DEPENDS ${FABC_DEB_CHANGELOG})
install(FILES ${FABC_DEB_CHANGELOG} DESTINATION ${CMAKE_INSTALL_DOCDIR})

include(CPack)
