#pragma once

namespace nqueens::mpi {

/// Kills this rank (as kill -9 would: the journal holds whole records only)
/// once the launcher that started it has died. Call before MPI_Init.
void exit_with_launcher();

}  // namespace nqueens::mpi
