#include "runtime/kernel_threads.h"

#include <algorithm>
#include <cstring>
#include <thread>

#ifdef __linux__
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#endif

namespace legate_fuse {

RowParts row_parts(std::int64_t rows, std::int64_t row_volume, std::int64_t min_elements,
                   std::int64_t multiple)
{
  if (rows <= 0 || row_volume <= 0) {
    return {rows, rows > 0 ? 1 : 0};
  }
  std::int64_t per_part = std::max<std::int64_t>(1, (min_elements + row_volume - 1) / row_volume);
  per_part              = (per_part + multiple - 1) / multiple * multiple;
  return {per_part, (rows + per_part - 1) / per_part};
}

void part_call(const KernelCall& call, std::int64_t first_row, std::int64_t rows,
               std::vector<legate_fuse_array>& arrays, std::vector<std::int64_t>& extents,
               std::vector<char>& scalars)
{
  arrays.assign(call.arrays, call.arrays + call.num_arrays);
  for (auto& array : arrays) {
    array.data += first_row * array.strides[0];
  }
  extents.assign(call.extents, call.extents + call.ndim);
  extents[0] = rows;
  scalars    = *call.scalars;
  if ((call.kernel.split & LEGATE_FUSE_SPLIT_MOVES_CORNER) != 0) {
    std::int64_t corner = 0;
    std::memcpy(&corner, scalars.data() + call.corner_offset, sizeof(corner));
    corner += first_row;
    std::memcpy(scalars.data() + call.corner_offset, &corner, sizeof(corner));
  }
}

namespace {

// A helper starts with the affinity of the Legate worker that started it, which Legate pins to
// a core of its own: the helper would share it (measured: no faster than one thread). It takes
// the process's (its main thread's) instead, and runs wherever a core is free. It stays in the
// scheduling class of the worker that started it: the worker waits for the parts a helper has
// taken, so a helper in a lower class (Linux's idle class, once) stalls the task whenever any
// other process wants the cores. Under two busy loops, a loop of split element-wise kernels
// took 24 ms an iteration with idle-class helpers against 16 (medians of 9 rounds), and
// 160 ms in 2 rounds of the 9.
void unpin()
{
#ifdef __linux__
  cpu_set_t cores;
  CPU_ZERO(&cores);
  if (sched_getaffinity(getpid(), sizeof(cores), &cores) == 0) {
    sched_setaffinity(0, sizeof(cores), &cores);
  }
#endif
}

}  // namespace

KernelThreads& KernelThreads::instance()
{
  // Never destroyed: its helpers wait for work until the process ends, and a thread still
  // joinable at destruction would end the process.
  static auto* threads = new KernelThreads();
  return *threads;
}

void KernelThreads::set_threads(int threads) { threads_.store(std::max(1, threads)); }

void KernelThreads::set_min_part_elements(std::int64_t elements)
{
  min_part_elements_.store(std::max<std::int64_t>(1, elements));
}

void KernelThreads::run(const KernelCall& call)
{
  const CpuKernel& kernel = call.kernel;
  const int threads       = threads_.load();
  const bool partials     = (kernel.split & LEGATE_FUSE_SPLIT_PARTIALS) != 0;
  const bool ordered      = (kernel.split & LEGATE_FUSE_SPLIT_ORDERED) != 0;
  // Element-wise kernels and ordered folds split only to use other threads; kernels with
  // partials always run in their parts, so that their result does not depend on the threads.
  if (call.ndim == 0 || (kernel.split & LEGATE_FUSE_SPLIT_ROWS) == 0 ||
      (threads < 2 && !partials)) {
    kernel.whole(call.ndim, call.extents, call.arrays, call.scalars->data());
    return;
  }
  std::int64_t row_volume = 1;
  for (std::int32_t d = 1; d < call.ndim; ++d) {
    row_volume *= call.extents[d];
  }
  Job job;
  job.call  = &call;
  job.rows  = call.extents[0];
  job.parts = row_parts(job.rows, row_volume, min_part_elements_.load(),
                        call.ndim == 1 ? kElementAlignment : 1);
  if (job.parts.parts < 2) {
    kernel.whole(call.ndim, call.extents, call.arrays, call.scalars->data());
    return;
  }
  if (ordered) {
    job.row_volume = row_volume;
    run_ordered(job);
    return;
  }
  const std::size_t part_bytes =
      static_cast<std::size_t>(kernel.partial_count) * LEGATE_FUSE_PARTIAL_SLOT;
  std::vector<char> slots(partials ? part_bytes * static_cast<std::size_t>(job.parts.parts) : 0);
  job.partials = partials ? slots.data() : nullptr;
  job.taken    = std::make_unique<std::atomic<bool>[]>(static_cast<std::size_t>(job.parts.parts));
  std::unique_lock<std::mutex> busy{busy_, std::defer_lock};
  if (threads > 1 && busy.try_lock()) {
    job.threads = threads;
    run_on_helpers(job);
  } else {
    run_parts(job, 0);  // one thread, or the helpers are another point task's now
  }
  for (std::int64_t part = 0; partials && part < job.parts.parts; ++part) {
    kernel.combine(call.arrays, slots.data() + part_bytes * static_cast<std::size_t>(part));
  }
}

void KernelThreads::run_each(std::int64_t parts, const std::function<void(std::int64_t)>& each)
{
  Job job;
  job.each  = &each;
  job.parts = {1, parts};
  job.taken = std::make_unique<std::atomic<bool>[]>(static_cast<std::size_t>(parts));
  std::unique_lock<std::mutex> busy{busy_, std::defer_lock};
  if (parts > 1 && threads_.load() > 1 && busy.try_lock()) {
    job.threads = threads_.load();
    run_on_helpers(job);
  } else {
    run_parts(job, 0);
  }
}

void KernelThreads::run_ordered(Job& job)
{
  const KernelCall& call  = *job.call;
  const CpuKernel& kernel = call.kernel;
  std::unique_lock<std::mutex> busy{busy_, std::try_to_lock};
  job.ordered = true;
  job.threads = threads_.load();
  job.stages  = kStagesPerThread * job.threads;
  // Each element's operands and masks (runtime/kernel_abi.h).
  job.stage_bytes = 2 * static_cast<std::size_t>(kernel.partial_count) * LEGATE_FUSE_OPERAND_BYTES *
                    static_cast<std::size_t>(job.parts.rows_per_part * job.row_volume);
  const std::size_t bytes = job.stage_bytes * static_cast<std::size_t>(job.stages);
  if (!busy.owns_lock() || bytes > kMaxStageBytes) {
    // The helpers are another point task's now, or the stages would take too much memory:
    // the one pass, on this thread.
    kernel.whole(call.ndim, call.extents, call.arrays, call.scalars->data());
    return;
  }
  if (operands_.size() < bytes) {
    operands_.resize(bytes);
  }
  job.operands = operands_.data();
  job.staged   = std::make_unique<std::atomic<bool>[]>(static_cast<std::size_t>(job.parts.parts));
  run_on_helpers(job);
}

bool KernelThreads::run_rows_and_resume(const KernelCall& call, std::int64_t parts,
                                        std::int64_t rows_per_part,
                                        const std::function<void(std::int64_t)>& row_part)
{
  const CpuKernel& kernel = call.kernel;
  if ((kernel.split & LEGATE_FUSE_SPLIT_RESUMES) == 0 || call.ndim != 1 || parts < 1 ||
      rows_per_part < 1 || rows_per_part % kElementAlignment != 0 ||
      (parts - 1) * rows_per_part >= call.extents[0] || parts * rows_per_part < call.extents[0]) {
    return false;
  }
  Job job;
  job.call    = &call;
  job.each    = &row_part;
  job.rows    = call.extents[0];
  job.parts   = {rows_per_part, parts};
  job.ordered = true;
  job.resumes = true;
  job.staged  = std::make_unique<std::atomic<bool>[]>(static_cast<std::size_t>(parts));
  pipelined_runs_.fetch_add(1);
  std::unique_lock<std::mutex> busy{busy_, std::defer_lock};
  if (parts > 1 && threads_.load() > 1 && busy.try_lock()) {
    job.threads = threads_.load();
    job.stages  = kStagesPerThread * job.threads;
    run_on_helpers(job);
    return true;
  }
  // One thread, or the helpers are another point task's now: each part's rows, then the
  // kernel on them while they are in cache.
  std::vector<char> partial(static_cast<std::size_t>(kernel.partial_count) *
                            LEGATE_FUSE_PARTIAL_SLOT);
  std::vector<legate_fuse_array> arrays;
  std::vector<std::int64_t> extents;
  std::vector<char> scalars;
  kernel.start(partial.data());
  for (std::int64_t part = 0; part < parts; ++part) {
    row_part(part);
    resume_part(job, part, partial.data(), arrays, extents, scalars);
  }
  kernel.combine(call.arrays, partial.data());
  return true;
}

void KernelThreads::resume_part(const Job& job, std::int64_t part, char* partial,
                                std::vector<legate_fuse_array>& arrays,
                                std::vector<std::int64_t>& extents, std::vector<char>& scalars)
{
  const KernelCall& call   = *job.call;
  const std::int64_t first = part * job.parts.rows_per_part;
  part_call(call, first, std::min(job.parts.rows_per_part, job.rows - first), arrays, extents,
            scalars);
  call.kernel.resume(call.ndim, extents.data(), arrays.data(), scalars.data(), partial);
}

void KernelThreads::stage_part(Job& job, std::int64_t part, std::vector<legate_fuse_array>& arrays,
                               std::vector<std::int64_t>& extents, std::vector<char>& scalars)
{
  if (job.resumes) {
    (*job.each)(part);  // the row call's part: the rows the kernel resumes on
  } else {
    const KernelCall& call   = *job.call;
    const std::int64_t first = part * job.parts.rows_per_part;
    part_call(call, first, std::min(job.parts.rows_per_part, job.rows - first), arrays, extents,
              scalars);
    call.kernel.stage(call.ndim, extents.data(), arrays.data(), scalars.data(),
                      job.operands + job.stage_bytes * static_cast<std::size_t>(part % job.stages));
  }
  job.staged[static_cast<std::size_t>(part)].store(true, std::memory_order_release);
  {
    const std::lock_guard<std::mutex> guard{job.progress};
  }
  job.progressed.notify_all();
}

void KernelThreads::stage_parts(Job& job)
{
  std::vector<legate_fuse_array> arrays;
  std::vector<std::int64_t> extents;
  std::vector<char> scalars;
  for (;;) {
    const std::int64_t part = job.next.fetch_add(1);
    if (part >= job.parts.parts) {
      return;
    }
    {
      // Its buffer is free once the part `stages` before it is folded.
      std::unique_lock<std::mutex> lock{job.progress};
      job.progressed.wait(lock, [&] { return part < job.folded.load() + job.stages; });
    }
    stage_part(job, part, arrays, extents, scalars);
  }
}

void KernelThreads::fold_parts(Job& job)
{
  std::vector<legate_fuse_array> arrays;
  std::vector<std::int64_t> extents;
  std::vector<char> scalars;
  const KernelCall& call = *job.call;
  std::vector<char> partial(static_cast<std::size_t>(call.kernel.partial_count) *
                            LEGATE_FUSE_PARTIAL_SLOT);
  call.kernel.start(partial.data());
  const std::int64_t all = job.parts.parts;
  std::int64_t folded    = 0;
  const auto claimable   = [&](std::int64_t next) {
    return next < all && next < folded + job.stages;
  };
  while (folded < all) {
    if (job.staged[static_cast<std::size_t>(folded)].load(std::memory_order_acquire)) {
      if (job.resumes) {
        resume_part(job, folded, partial.data(), arrays, extents, scalars);
      } else {
        const std::int64_t first = folded * job.parts.rows_per_part;
        const std::int64_t rows  = std::min(job.parts.rows_per_part, job.rows - first);
        call.kernel.fold(
            job.operands + job.stage_bytes * static_cast<std::size_t>(folded % job.stages),
            rows * job.row_volume, partial.data());
      }
      job.folded.store(++folded);
      {
        const std::lock_guard<std::mutex> guard{job.progress};
      }
      job.progressed.notify_all();
      continue;
    }
    std::int64_t next = job.next.load();
    if (claimable(next) && job.next.compare_exchange_strong(next, next + 1)) {
      stage_part(job, next, arrays, extents, scalars);
      continue;
    }
    std::unique_lock<std::mutex> lock{job.progress};
    job.progressed.wait(lock, [&] {
      return job.staged[static_cast<std::size_t>(folded)].load() || claimable(job.next.load());
    });
  }
  call.kernel.combine(call.arrays, partial.data());
}

void KernelThreads::run_on_helpers(Job& job)
{
  {
    const std::lock_guard<std::mutex> guard{mutex_};
    for (; helpers_ < job.threads - 1; ++helpers_) {
      std::thread{[this, index = helpers_ + 1] { help(index); }}.detach();
    }
    job_ = &job;
    ++generation_;
  }
  wake_.notify_all();
  work(job, 0);
  // Every part has been taken: wait for the helpers still running theirs, and let none start.
  std::unique_lock<std::mutex> lock{mutex_};
  job_ = nullptr;
  done_.wait(lock, [&] { return working_ == 0; });
  if (job.each == nullptr) {
    split_runs_.fetch_add(1);
  }
}

void KernelThreads::work(Job& job, int index)
{
  if (!job.ordered) {
    run_parts(job, index);
  } else if (index == 0) {
    fold_parts(job);
  } else if (index < job.threads) {
    stage_parts(job);
  }
}

void KernelThreads::run_parts(Job& job, int index)
{
  if (index >= job.threads) {
    return;  // a helper beyond this job's threads
  }
  const std::int64_t all        = job.parts.parts;
  const std::int64_t first_part = all * index / job.threads;
  if (job.each != nullptr) {
    for (std::int64_t step = 0; step < all; ++step) {
      const std::int64_t part = (first_part + step) % all;
      if (!job.taken[static_cast<std::size_t>(part)].exchange(true)) {
        (*job.each)(part);
      }
    }
    return;
  }
  std::vector<legate_fuse_array> arrays;
  std::vector<std::int64_t> extents;
  std::vector<char> scalars;
  const KernelCall& call = *job.call;
  const std::size_t bytes =
      static_cast<std::size_t>(call.kernel.partial_count) * LEGATE_FUSE_PARTIAL_SLOT;
  for (std::int64_t step = 0; step < all; ++step) {
    const std::int64_t part = (first_part + step) % all;
    if (job.taken[static_cast<std::size_t>(part)].exchange(true)) {
      continue;
    }
    const std::int64_t first = part * job.parts.rows_per_part;
    const std::int64_t rows  = std::min(job.parts.rows_per_part, job.rows - first);
    part_call(call, first, rows, arrays, extents, scalars);
    if (job.partials != nullptr) {
      call.kernel.part(call.ndim, extents.data(), arrays.data(), scalars.data(),
                       job.partials + bytes * static_cast<std::size_t>(part));
    } else {
      call.kernel.whole(call.ndim, extents.data(), arrays.data(), scalars.data());
    }
  }
}

void KernelThreads::help(int index)
{
#ifdef __linux__
  pthread_setname_np(pthread_self(), "lf-kernel");  // as the tests and `top -H` find it
#endif
  unpin();
  std::uint64_t seen = 0;
  std::unique_lock<std::mutex> lock{mutex_};
  for (;;) {
    wake_.wait(lock, [&] { return generation_ != seen; });
    seen = generation_;
    if (job_ == nullptr) {
      continue;  // finished before this helper woke
    }
    Job& job = *job_;
    ++working_;
    lock.unlock();
    work(job, index);
    lock.lock();
    if (--working_ == 0) {
      done_.notify_all();
    }
  }
}

}  // namespace legate_fuse
