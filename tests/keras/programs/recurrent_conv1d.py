"""Sequence models: a Conv1D text classifier (Embedding with mask_zero, Conv1D, MaxPooling1D,
GlobalMaxPooling1D), a Bidirectional LSTM, GRU with return_sequences, TimeDistributed Dense,
and pad_sequences / to_categorical from keras.utils."""
import numpy as np
import tensorflow as tf

keras = tf.keras
keras.utils.set_random_seed(9)
rng = np.random.RandomState(9)
seqs = [list(rng.randint(1, 25, size=rng.randint(3, 10))) for _ in range(40)]
print('pad pre', keras.utils.pad_sequences(seqs[:3], maxlen=6))
print('pad post', keras.utils.pad_sequences(seqs[:3], maxlen=6, padding='post', truncating='post',
                                            value=-1))
x = keras.utils.pad_sequences(seqs, maxlen=8)
labels = np.array([int(sum(s) % 3) for s in seqs])
y = keras.utils.to_categorical(labels, num_classes=3)
print('categorical', y[:4], y.dtype)

conv = keras.Sequential([
    keras.Input((8,)),
    keras.layers.Embedding(25, 6),
    keras.layers.Conv1D(8, 3, activation='relu', padding='same'),
    keras.layers.MaxPooling1D(2),
    keras.layers.Conv1D(8, 2, activation='relu'),
    keras.layers.GlobalMaxPooling1D(),
    keras.layers.Dense(3, activation='softmax'),
])
conv.compile(optimizer='adam', loss='categorical_crossentropy', metrics=['accuracy'])
h = conv.fit(x, y, epochs=3, batch_size=10, verbose=0)
print('conv loss', np.round(h.history['loss'], 5).tolist())

bilstm = keras.Sequential([
    keras.Input((8,)),
    keras.layers.Embedding(25, 6, mask_zero=True),
    keras.layers.Bidirectional(keras.layers.LSTM(5)),
    keras.layers.Dense(3, activation='softmax'),
])
bilstm.compile(optimizer=keras.optimizers.RMSprop(0.01), loss='categorical_crossentropy')
h = bilstm.fit(x, y, epochs=2, batch_size=10, verbose=0)
print('bilstm loss', np.round(h.history['loss'], 5).tolist())
print('bilstm predict', np.round(bilstm.predict(x[:2], verbose=0), 5).tolist())

tagger = keras.Sequential([
    keras.Input((8,)),
    keras.layers.Embedding(25, 4),
    keras.layers.GRU(6, return_sequences=True),
    keras.layers.TimeDistributed(keras.layers.Dense(2, activation='softmax')),
])
tags = (x % 2).astype('int32')
tagger.compile(optimizer='adam', loss='sparse_categorical_crossentropy', metrics=['accuracy'])
h = tagger.fit(x, tags, epochs=2, batch_size=20, verbose=0)
print('tagger', np.round(h.history['loss'], 5).tolist(), np.round(h.history['accuracy'], 5).tolist())
print('tagger out', tagger.predict(x[:1], verbose=0).shape)
stacked = keras.Sequential([keras.Input((5, 3)), keras.layers.SimpleRNN(4, return_sequences=True),
                            keras.layers.LSTM(3, return_state=False)])
print('stacked', np.round(stacked(np.ones((2, 5, 3), 'float32')).numpy(), 5).tolist())
